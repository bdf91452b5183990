import { MoneyDecimal } from "@northstar/shared/money";
import { PROOF_BUCKETS, type ProofBucket } from "@northstar/shared/proofs";

/** The buckets beyond the wallets' free and held funds: money in products, reserved or on its way out. */
export const ELSEWHERE_BUCKETS = PROOF_BUCKETS.filter((b) => b !== "available" && b !== "held");

export interface HoldingSplit {
  available: string;
  held: string;
  /** Every other bucket added up. */
  elsewhere: string;
  /** The other buckets that hold something, in the proof's bucket order. */
  parts: { bucket: ProofBucket; amount: string }[];
}

/** One currency's buckets as the assets page shows them: available, on hold, and the rest with its parts. */
export function splitHolding(buckets: Record<ProofBucket, string>): HoldingSplit {
  const parts = ELSEWHERE_BUCKETS.map((bucket) => ({ bucket, amount: buckets[bucket] ?? "0" })).filter(
    (p) => !new MoneyDecimal(p.amount).isZero(),
  );
  return {
    available: buckets.available ?? "0",
    held: buckets.held ?? "0",
    elsewhere: parts.reduce((s, p) => s.plus(p.amount), new MoneyDecimal(0)).toFixed(),
    parts,
  };
}
