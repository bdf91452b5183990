import Decimal from "decimal.js";

/**
 * Money helpers. Amounts travel as decimal strings and are computed with decimal.js;
 * a JS number never holds money.
 */
export const MoneyDecimal = Decimal.clone({
  precision: 60,
  rounding: Decimal.ROUND_DOWN,
  toExpNeg: -40,
  toExpPos: 60,
});
export type MoneyDecimal = InstanceType<typeof MoneyDecimal>;

/** Up to 20 integer digits and 18 fractional ones: what NUMERIC(38,18) holds. */
export const DECIMAL_STRING = /^(0|[1-9]\d{0,19})(\.\d{1,18})?$/;

/** The first value NUMERIC(38,18) cannot hold: 10^20. */
const NUMERIC_LIMIT = new MoneyDecimal("1e20");

/**
 * Whether a value (typed, or computed: price × quantity, amount × rate) fits NUMERIC(38,18) once
 * stored. A value beyond it must be refused as too large before it reaches the database, where it
 * would fail the statement.
 */
export function fitsNumeric(value: string | MoneyDecimal): boolean {
  return new MoneyDecimal(value).abs().lessThan(NUMERIC_LIMIT);
}

export function money(value: string | MoneyDecimal): MoneyDecimal {
  return new MoneyDecimal(value);
}

/** Formats with a fixed number of decimals, rounding down so that a balance is never overstated. */
export function formatAmount(value: string, decimals: number): string {
  return new MoneyDecimal(value).toFixed(decimals, Decimal.ROUND_DOWN);
}
