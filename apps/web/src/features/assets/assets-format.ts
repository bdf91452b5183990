import { exactDecimals, naturalRate, numberMarks, withMarks, withUnit } from "@northstar/shared/format";
import { LANGUAGE_INFO } from "@northstar/shared/languages";
import { formatAmount, MoneyDecimal } from "@northstar/shared/money";
import { useMemo } from "react";
import { useLanguage } from "../../lib/session.ts";
import { groupDigits } from "../funding/amount-text.ts";

/** A price shown to 10 significant digits, rounded down (0.0000110888… stays readable and never rounds up). */
export function priceDigits(value: string): string {
  return new MoneyDecimal(value).toSignificantDigits(10, MoneyDecimal.ROUND_DOWN).toFixed();
}

export function isZero(value: string): boolean {
  return new MoneyDecimal(value).isZero();
}

/** How many decimals a typed decimal string carries ("1.250" → 3). */
export function decimalPlaces(value: string): number {
  const [, frac = ""] = value.split(".");
  return frac.length;
}

/** Number formatting in the interface language, for money held as decimal strings. */
export function useMoneyFormat() {
  const lang = useLanguage();
  return useMemo(() => {
    const marks = numberMarks(LANGUAGE_INFO[lang].bcp47);
    return {
      marks,
      /** A stored amount as it is, without trailing zeros, grouped: "200000.500" → "200,000.5". */
      grouped: (value: string) => groupDigits(value, marks),
      /** A balance with the currency's display decimals, rounded down. */
      amount: (value: string, decimals: number) => withMarks(formatAmount(value, decimals), marks),
      /** The exact value, trimmed to between `min` and `max` decimals. */
      exact: (value: string, min: number, max: number) => withMarks(exactDecimals(value, min, max), marks),
      /** A signed exact value: "+1,234.5" for a credit, "-1,234.5" for a debit. */
      signed: (value: string, min: number, max: number) => {
        const text = withMarks(exactDecimals(value, min, max), marks);
        return text.startsWith("-") || !/[1-9]/.test(text) ? text : `+${text}`;
      },
      price: (value: string) => withMarks(priceDigits(value), marks),
      /** An amount and its unit with a space between: "5,000.00 USDT". */
      withUnit: (value: string, decimals: number, unit: string) =>
        withUnit(withMarks(formatAmount(value, decimals), marks), unit),
      /** A conversion price in its natural direction, as "1 {from} ≈ {price} {to}" reads it (1 BTC ≈ 91,250.12 USDT). */
      rate: (from: string, to: string, price: string) => {
        const r = naturalRate(from, to, price);
        return { from: r.base, to: r.quote, price: withMarks(r.rate, marks) };
      },
    };
  }, [lang]);
}

/**
 * Keeps what an amount field may hold: digits and one decimal point ("," is taken as the point),
 * at most `decimals` after it. Money stays a string; it is never parsed into a JS number.
 */
export function amountInput(decimals: number) {
  return (value: unknown): string => {
    const raw = String(value ?? "")
      .replace(/,/g, ".")
      .replace(/[^\d.]/g, "");
    const dot = raw.indexOf(".");
    if (dot === -1) {
      return raw;
    }
    const int = raw.slice(0, dot) || "0";
    const frac = raw.slice(dot + 1).replace(/\./g, "");
    return decimals > 0 ? `${int}.${frac.slice(0, decimals)}` : int;
  };
}

/** Tabular figures, right-aligned: columns of amounts line up digit under digit. */
export const NUMERIC_STYLE = { fontVariantNumeric: "tabular-nums", whiteSpace: "nowrap" } as const;
