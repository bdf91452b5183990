import { ratePercent } from "@northstar/shared/format";

/** A policy share as a percentage, exact: "0.2" → "20%", "0.025" → "2.5%". */
export function percent(rate: string): string {
  return `${ratePercent(rate)}%`;
}
