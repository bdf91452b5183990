import { DECIMAL_STRING, MoneyDecimal } from "./money.ts";

export interface WithdrawalQuote {
  fee: string;
  received: string;
}

/**
 * Fee and amount received for a withdrawal, the one computation the server charges and the form
 * previews. The fee is amount × rate rounded UP to the currency's decimals, so it never
 * under-charges and what is received can be sent. Null for an amount that is not a positive decimal
 * string or is finer than the currency's decimals: such an amount could not be sent as given.
 */
export function withdrawalQuote(amount: string, feeRate: string, decimals: number): WithdrawalQuote | null {
  if (!DECIMAL_STRING.test(amount) || !/[1-9]/.test(amount)) {
    return null;
  }
  const value = new MoneyDecimal(amount);
  if (value.decimalPlaces() > decimals) {
    return null;
  }
  const fee = value.times(feeRate).toDecimalPlaces(decimals, MoneyDecimal.ROUND_UP);
  return { fee: fee.toFixed(), received: value.minus(fee).toFixed() };
}
