import type { TEarnFamily } from "@northstar/shared/contracts/earn";
import { ratePercent } from "@northstar/shared/format";
import { MoneyDecimal } from "@northstar/shared/money";

/** Which family each earn route shows (SPEC section 2). */
export const FAMILY_ROUTES: Record<TEarnFamily, string> = {
  ai: "/profit_index",
  vip: "/vip_index",
  etf: "/etflow_buy",
};

export function familyOfPath(path: string): TEarnFamily {
  if (path.startsWith("/vip")) {
    return "vip";
  }
  if (path.startsWith("/etf")) {
    return "etf";
  }
  return "ai";
}

/** A daily rate share as a percentage text: "0.004" → "0.4" (the shared exact formatter). */
export { ratePercent };

/** "0.3% – 0.5%" for a range, "0.4%" for a fixed rate. */
export function rateText(min: string, max: string): string {
  return new MoneyDecimal(min).equals(max)
    ? `${ratePercent(min)}%`
    : `${ratePercent(min)}% – ${ratePercent(max)}%`;
}

/**
 * The earnings over a whole cycle, as the server pays them: each day cut to the currency's decimals
 * ("0" while they are unknown, or for an amount the server would refuse).
 */
export function cycleEarnings(
  amount: string,
  rate: string,
  days: number,
  decimals: number | undefined,
): string {
  if (
    decimals === undefined ||
    !/^\d+(\.\d+)?$/.test(amount) ||
    new MoneyDecimal(amount).decimalPlaces() > decimals
  ) {
    return "0";
  }
  return new MoneyDecimal(amount)
    .times(rate)
    .toDecimalPlaces(decimals, MoneyDecimal.ROUND_DOWN)
    .times(days)
    .toFixed();
}
