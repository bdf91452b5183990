import { MoneyDecimal } from "./money.ts";

/** Fiat amounts (what the user wires) carry at most this many decimals. */
export const C2C_FIAT_DECIMALS = 2;

export type C2cQuoteMode = "fiat" | "coin";

export interface C2cQuote {
  /** What the user wires, in the merchant's fiat. */
  fiatAmount: string;
  /** What the user receives, in the coin. */
  coinAmount: string;
}

/**
 * The order's two sides at a locked price, the same on the server and in the browser. Given a fiat
 * amount, the coins are cut down to the coin's decimals (`coinDecimals`, the currency's: the user
 * never receives more than was paid for, nor a fraction the wallet cannot move); given a coin
 * quantity, the fiat is rounded up to the cent (the merchant never receives less). Returns null when
 * the input has too many decimals or gives nothing.
 */
export function c2cQuote(
  mode: C2cQuoteMode,
  amount: string,
  price: string,
  coinDecimals: number,
): C2cQuote | null {
  const value = new MoneyDecimal(amount);
  const p = new MoneyDecimal(price);
  if (p.lessThanOrEqualTo(0) || value.lessThanOrEqualTo(0)) {
    return null;
  }
  if (mode === "fiat") {
    if (value.decimalPlaces() > C2C_FIAT_DECIMALS) {
      return null;
    }
    const coin = value.dividedBy(p).toDecimalPlaces(coinDecimals, MoneyDecimal.ROUND_DOWN);
    return coin.isZero() ? null : { fiatAmount: value.toFixed(), coinAmount: coin.toFixed() };
  }
  if (value.decimalPlaces() > coinDecimals) {
    return null;
  }
  const fiat = value.times(p).toDecimalPlaces(C2C_FIAT_DECIMALS, MoneyDecimal.ROUND_UP);
  return { fiatAmount: fiat.toFixed(), coinAmount: value.toFixed() };
}

/** Whole seconds left until a deadline, never below zero. */
export function secondsLeft(deadline: Date | string, now: Date = new Date()): number {
  return Math.max(0, Math.floor((new Date(deadline).getTime() - now.getTime()) / 1000));
}
