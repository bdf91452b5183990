import { ratePercent } from "@northstar/shared/format";
import { MoneyDecimal } from "@northstar/shared/money";

/** A daily rate as a percentage string: "0.001" → "0.1" (the shared exact formatter). */
export { ratePercent };

/** An amount the user typed that the quote can use: positive, at most two decimals. */
export function isLoanAmount(value: string): boolean {
  return /^\d+(\.\d{1,2})?$/.test(value) && /[1-9]/.test(value);
}

/** Loans whose principal is out: they can be repaid. */
export const OUTSTANDING = new Set(["disbursed", "repaying", "overdue"]);

/** Within the product's minimum and maximum (the quote is asked only then). */
export function inRange(value: string, p: { minAmount: string; maxAmount: string }): boolean {
  return (
    isLoanAmount(value) &&
    new MoneyDecimal(value).greaterThanOrEqualTo(p.minAmount) &&
    new MoneyDecimal(value).lessThanOrEqualTo(p.maxAmount)
  );
}
