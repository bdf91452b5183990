import { MoneyDecimal } from "@northstar/shared/money";

/** A policy share as a percentage, exact: "0.2" → "20%", "0.025" → "2.5%". */
export function percent(rate: string): string {
  return `${new MoneyDecimal(rate).times(100).toFixed()}%`;
}
