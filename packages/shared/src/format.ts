import { LANGUAGE_INFO, type Language } from "./languages.ts";
import { MoneyDecimal } from "./money.ts";

/**
 * Display formatting of amounts, rates and dates in the user's language. Amounts arrive as decimal
 * strings and are rounded with decimal.js; Intl only tells which marks a locale uses, so no amount
 * ever passes through a JS number.
 */

export interface NumberMarks {
  group: string;
  decimal: string;
}

const marksCache = new Map<string, NumberMarks>();

/** The digit-group and decimal marks of a BCP 47 locale ("de" → "." and ","). */
export function numberMarks(bcp47: string): NumberMarks {
  let marks = marksCache.get(bcp47);
  if (!marks) {
    const parts = new Intl.NumberFormat(bcp47).formatToParts(1234567.5);
    marks = {
      group: parts.find((p) => p.type === "group")?.value ?? ",",
      decimal: parts.find((p) => p.type === "decimal")?.value ?? ".",
    };
    marksCache.set(bcp47, marks);
  }
  return marks;
}

/** The BCP 47 locale of an interface language. */
export function localeOf(lang: Language): string {
  return LANGUAGE_INFO[lang].bcp47;
}

/** Puts a locale's marks into a plain decimal string ("-1234.5" → "-1,234.5"); the digits are untouched. */
export function withMarks(plain: string, marks: NumberMarks): string {
  const negative = plain.startsWith("-");
  const [int = "0", frac] = (negative ? plain.slice(1) : plain).split(".");
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, marks.group);
  const text = `${grouped}${frac ? marks.decimal + frac : ""}`;
  // "-0.00" after rounding toward zero is just zero.
  return negative && /[1-9]/.test(text) ? `-${text}` : text;
}

/** An amount and its unit, always with a space between them ("5,000 USDT"). */
export function withUnit(text: string, unit: string | undefined): string {
  return unit ? `${text} ${unit}` : text;
}

export interface AmountOptions {
  /** Decimals shown: the currency's display precision. Extra digits are rounded down, never up. */
  decimals: number;
  /** The unit written after the amount, separated by a space. */
  unit?: string | undefined;
  /** The locale's marks (from `numberMarks`); plain "," and "." when absent. */
  marks?: NumberMarks | undefined;
}

/** "5000" with 2 decimals and unit USDT → "5,000.00 USDT"; a balance is never overstated. */
export function formatMoney(value: string, options: AmountOptions): string {
  const plain = new MoneyDecimal(value).toFixed(options.decimals, MoneyDecimal.ROUND_DOWN);
  return withUnit(withMarks(plain, options.marks ?? DEFAULT_MARKS), options.unit);
}

/**
 * The exact value with at least `min` and at most `max` decimals: records and confirmations show what
 * moved, not a rounded figure. Beyond `max` it rounds down, so it never overstates.
 */
export function exactDecimals(value: string, min: number, max: number): string {
  const d = new MoneyDecimal(value).toDecimalPlaces(max, MoneyDecimal.ROUND_DOWN);
  return d.toFixed(Math.max(min, Math.min(d.decimalPlaces(), max)));
}

/**
 * A rate (a decimal string share) as a percentage, exactly, with decimal.js: "0.0007" → "0.07",
 * "0.825" → "82.5". Never through a JS number, where 0.0007 × 100 reads 0.06999999999999999.
 */
export function ratePercent(rate: string): string {
  return new MoneyDecimal(rate).times(100).toFixed();
}

const DEFAULT_MARKS: NumberMarks = { group: ",", decimal: "." };

/** Significant digits a conversion rate keeps: 91,250.12 and 1.083412 both read naturally. */
const RATE_SIGNIFICANT = 7;

export interface NaturalRate {
  /** The currency of which one unit is quoted. */
  base: string;
  /** The currency the rate is in. */
  quote: string;
  /** How many `quote` one `base` is worth, as a plain decimal string with sensible precision. */
  rate: string;
}

/**
 * A conversion price stated the way people read it: one unit of the dearer currency in the cheaper
 * one. `price` is how many `to` one `from` buys; when that is below 1 (USDT → BTC) the quote turns
 * round, so "1 BTC = 91,250.12 USDT" and never "1 USDT = 0.0000109589 BTC".
 */
export function naturalRate(from: string, to: string, price: string): NaturalRate {
  const p = new MoneyDecimal(price);
  if (p.isZero()) {
    return { base: from, quote: to, rate: "0" };
  }
  const flipped = p.lessThan(1);
  const value = flipped ? new MoneyDecimal(1).dividedBy(p) : p;
  const intDigits = value.truncated().toFixed().length;
  // At least 2 decimals, more for small rates, so about RATE_SIGNIFICANT digits show in all.
  const decimals = Math.min(Math.max(RATE_SIGNIFICANT - intDigits, 2), 8);
  return {
    base: flipped ? to : from,
    quote: flipped ? from : to,
    rate: value.toFixed(decimals, MoneyDecimal.ROUND_HALF_UP),
  };
}

/** A moment (ms since the epoch) as a date and time in the user's locale. */
export function formatDateTime(ms: number, bcp47: string, options: { seconds?: boolean } = {}): string {
  return new Intl.DateTimeFormat(bcp47, {
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    ...(options.seconds ? { second: "2-digit" } : {}),
    hourCycle: "h23",
  }).format(ms);
}

/** A day (ms since the epoch) as a date in the user's locale. */
export function formatDate(ms: number, bcp47: string): string {
  return new Intl.DateTimeFormat(bcp47, { year: "numeric", month: "2-digit", day: "2-digit" }).format(ms);
}
