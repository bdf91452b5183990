import type { Db } from "@northstar/domain/db";
import { runReferralRewards } from "@northstar/domain/referral";

export interface ReferralRewardsDeps {
  db: Db;
  /** The instant a run pays up to (every ended UTC day before it); tests pass a test clock. */
  now: () => Date;
  log: (line: string) => void;
}

/**
 * Pays every ended day's referral rewards not paid yet (yesterday, and the days missed while no
 * worker ran). Idempotent per day: the day's run row is written in the same transaction as its
 * rewards and ledger entries, so a redelivered job or two overlapping runs pay a day once.
 */
export async function processReferralRewards(deps: ReferralRewardsDeps) {
  const result = await runReferralRewards(deps.db, deps.now());
  for (const r of result.results) {
    if (r.applied) {
      deps.log(`referral-rewards ${r.day}: ${r.rewards} reward(s) from ${r.feePostings} fee posting(s)`);
    }
  }
  return result;
}
