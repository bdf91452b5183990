import { LANGUAGE_INFO } from "@northstar/shared/languages";
import { formatAmount, MoneyDecimal } from "@northstar/shared/money";
import { useMemo } from "react";
import { useLanguage } from "../../lib/session.ts";

/** The digit-group and decimal marks of a locale, read once from Intl (no money passes through Intl). */
interface Marks {
  group: string;
  decimal: string;
}

function localeMarks(bcp47: string): Marks {
  const parts = new Intl.NumberFormat(bcp47).formatToParts(1234567.5);
  return {
    group: parts.find((p) => p.type === "group")?.value ?? ",",
    decimal: parts.find((p) => p.type === "decimal")?.value ?? ".",
  };
}

/** Puts a locale's marks into a plain decimal string ("-1234.5" → "-1,234.5"); the digits are untouched. */
export function withMarks(plain: string, marks: Marks): string {
  const negative = plain.startsWith("-");
  const [int = "0", frac] = (negative ? plain.slice(1) : plain).split(".");
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, marks.group);
  const text = `${grouped}${frac ? marks.decimal + frac : ""}`;
  // "-0.00" after rounding toward zero is just zero.
  return negative && /[1-9]/.test(text) ? `-${text}` : text;
}

/**
 * The exact value with at least `min` and at most `max` decimals: records and confirmations show what
 * moved, not a rounded figure. Beyond `max` it rounds down, so it never overstates.
 */
export function exactDecimals(value: string, min: number, max: number): string {
  const d = new MoneyDecimal(value).toDecimalPlaces(max, MoneyDecimal.ROUND_DOWN);
  return d.toFixed(Math.max(min, Math.min(d.decimalPlaces(), max)));
}

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
    const marks = localeMarks(LANGUAGE_INFO[lang].bcp47);
    return {
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
