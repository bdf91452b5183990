import { DECIMAL_STRING, MoneyDecimal } from "@northstar/shared/money";

/**
 * Conversions between the decimal strings of the API and the engine's integers. A price or quantity
 * that is not a whole number of ticks or lots is refused (null) rather than rounded: rounding would
 * silently change what the user asked for. Results must also be safe integers.
 */

/** How many `step`s make `value`, or null when value is not a plain decimal on the step grid. */
function toSteps(value: string, step: string): number | null {
  if (!DECIMAL_STRING.test(value) || !DECIMAL_STRING.test(step)) {
    return null;
  }
  const size = new MoneyDecimal(step);
  if (size.isZero()) {
    return null;
  }
  const amount = new MoneyDecimal(value);
  if (!amount.mod(size).isZero()) {
    return null;
  }
  const steps = amount.div(size).toNumber();
  return Number.isSafeInteger(steps) ? steps : null;
}

function fromSteps(steps: number, step: string): string {
  if (!Number.isSafeInteger(steps) || steps < 0) {
    throw new RangeError(`not a count of steps: ${steps}`);
  }
  return new MoneyDecimal(steps).times(step).toFixed();
}

/** Price "101.25" with tick "0.05" → 2025 ticks; null when off the tick grid or not a plain decimal. */
export function toTicks(price: string, tickSize: string): number | null {
  return toSteps(price, tickSize);
}

export function fromTicks(ticks: number, tickSize: string): string {
  return fromSteps(ticks, tickSize);
}

/** Quantity in base currency → lots; null when not a whole number of lots. */
export function toLots(qty: string, lotSize: string): number | null {
  return toSteps(qty, lotSize);
}

export function fromLots(lots: number, lotSize: string): string {
  return fromSteps(lots, lotSize);
}

/**
 * A quote-currency budget → quote units (1 unit = tickSize × lotSize), rounded DOWN: a market buy given
 * this many units never spends more than the budget. Null when not a plain decimal or too large.
 */
export function toQuoteUnits(amount: string, tickSize: string, lotSize: string): number | null {
  if (!DECIMAL_STRING.test(amount) || !DECIMAL_STRING.test(tickSize) || !DECIMAL_STRING.test(lotSize)) {
    return null;
  }
  const unit = new MoneyDecimal(tickSize).times(lotSize);
  if (unit.isZero()) {
    return null;
  }
  const units = new MoneyDecimal(amount).divToInt(unit).toNumber();
  return Number.isSafeInteger(units) ? units : null;
}

export function fromQuoteUnits(units: number, tickSize: string, lotSize: string): string {
  return fromSteps(units, new MoneyDecimal(tickSize).times(lotSize).toFixed());
}
