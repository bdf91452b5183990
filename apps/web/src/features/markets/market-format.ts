import { LANGUAGE_INFO } from "@northstar/shared/languages";
import { MoneyDecimal } from "@northstar/shared/money";
import { useMemo } from "react";
import { useLanguage } from "../../lib/session.ts";
import { decimalPlaces, useMoneyFormat } from "../assets/assets-format.ts";

export type Direction = "up" | "down" | "flat";

/** The sign of a decimal string: up above zero, down below. */
export function direction(value: string | undefined): Direction {
  if (!value) {
    return "flat";
  }
  const d = new MoneyDecimal(value);
  return d.isZero() ? "flat" : d.isNegative() ? "down" : "up";
}

/** How many decimals a quantity of this instrument carries: those of its lot size (at most 8). */
export function quantityDecimals(lotSize: string): number {
  return Math.min(decimalPlaces(new MoneyDecimal(lotSize).toFixed()), 8);
}

/**
 * Market figures in the interface language. Prices and quantities stay decimal strings (rounded
 * down to the instrument's display decimals); only the abbreviated volumes pass through Intl, for
 * display.
 */
export function useMarketFormat() {
  const lang = useLanguage();
  const money = useMoneyFormat();
  return useMemo(() => {
    const bcp47 = LANGUAGE_INFO[lang].bcp47;
    const compact = new Intl.NumberFormat(bcp47, { notation: "compact", maximumFractionDigits: 2 });
    const clock = new Intl.DateTimeFormat(bcp47, {
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      hourCycle: "h23",
    });
    const weekday = new Intl.DateTimeFormat(bcp47, { weekday: "short", timeZone: "UTC" });
    return {
      bcp47,
      /** A price with the instrument's display decimals (2, 4 or 6). */
      price: (value: string, decimals: number) => money.amount(value, decimals),
      /** A quantity with the lot size's decimals. */
      quantity: (value: string, decimals: number) => money.amount(value, decimals),
      /** "+1.25%" / "-0.40%" / "0.00%". */
      change: (value: string) => {
        const text = `${money.amount(value, 2)}%`;
        return direction(value) === "up" ? `+${text}` : text;
      },
      /** A large volume abbreviated in the locale's way (1.2M, 120万, 1,2 M). */
      volume: (value: string) => compact.format(Number(value)),
      time: (ms: number) => clock.format(ms),
      /** Short weekday name, 0 = Sunday (1970-01-04 was a Sunday). */
      weekday: (day: number) => weekday.format(Date.UTC(1970, 0, 4 + day)),
    };
  }, [lang, money]);
}
