import { MoneyDecimal } from "@northstar/shared/money";

/*
 * The tick grid. Every price a feed emits is a whole number of ticks, computed and formatted with
 * decimal arithmetic, never via a float's string form.
 */

/** A tick size as an integer mantissa and a count of decimals: "0.25" → 25 and 2. */
const GRIDS = new Map<string, { mantissa: number; scale: number } | null>();
function grid(tickSize: string) {
  let g = GRIDS.get(tickSize);
  if (g === undefined) {
    const plain = new MoneyDecimal(tickSize).toFixed();
    const [whole = "", fraction = ""] = plain.split(".");
    const mantissa = Number(`${whole}${fraction}`);
    g = Number.isSafeInteger(mantissa) && mantissa > 0 ? { mantissa, scale: fraction.length } : null;
    GRIDS.set(tickSize, g);
  }
  return g;
}

/**
 * `ticks` × `tickSize` as a plain decimal string. `ticks` must be a safe integer. Exact integer
 * arithmetic on the tick size's digits (feeds and history call this millions of times); a product
 * past 2^53 goes the decimal way.
 */
export function fromTicks(ticks: number, tickSize: string): string {
  const g = grid(tickSize);
  const product = g ? ticks * g.mantissa : Number.NaN;
  if (!g || !Number.isSafeInteger(product) || product < 0) {
    return new MoneyDecimal(ticks).times(tickSize).toFixed();
  }
  if (g.scale === 0) {
    return String(product);
  }
  const digits = String(product).padStart(g.scale + 1, "0");
  const whole = digits.slice(0, digits.length - g.scale);
  const fraction = digits.slice(digits.length - g.scale).replace(/0+$/, "");
  return fraction ? `${whole}.${fraction}` : whole;
}

/** The nearest price on the grid (half up), at least one tick so that a price is never 0. */
export function roundToTick(price: string | MoneyDecimal, tickSize: string): string {
  const ticks = new MoneyDecimal(price).div(tickSize).toDecimalPlaces(0, MoneyDecimal.ROUND_HALF_UP);
  return MoneyDecimal.max(ticks, 1).times(tickSize).toFixed();
}

/** Whether `price` is a positive whole multiple of `tickSize`. */
export function isOnGrid(price: string, tickSize: string): boolean {
  const p = new MoneyDecimal(price);
  return p.gt(0) && p.mod(tickSize).isZero();
}

/** A plain, normalised decimal string ("46506.00" → "46506"), so equal values compare equal as strings. */
export const normaliseDecimal = (value: string | MoneyDecimal): string => new MoneyDecimal(value).toFixed();
