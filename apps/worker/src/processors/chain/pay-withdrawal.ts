import { type HotWallet, type PayoutStep, stepHotWalletWithdrawal } from "@northstar/domain/chain";
import type { Db } from "@northstar/domain/db";
import { ZPayWithdrawalJobSchema } from "@northstar/shared/jobs";
import { DelayedError, type Job, UnrecoverableError } from "bullmq";

export interface PayWithdrawalDeps {
  db: Db;
  wallet: HotWallet;
  /** The clock that decides whether a payout is stuck; tests move it. */
  now: () => Date;
  /** How long a payout still on its way waits before the next look. */
  pollMs: number;
}

/** States after which the hot wallet has nothing more to do for the withdrawal (until an operator acts). */
const SETTLED = new Set<PayoutStep["state"]>(["success", "failed", "awaiting_release", "idle"]);

/**
 * Moves one hot-wallet payout on. A second delivery of the same withdrawal finds the work done (or
 * being done under the same row locks) and changes nothing; a payout still on its way waits
 * `pollMs` and looks again, until it is confirmed or failed.
 */
export async function processPayWithdrawal(job: Job, token: string | undefined, deps: PayWithdrawalDeps) {
  const parsed = ZPayWithdrawalJobSchema.safeParse(job.data);
  if (!parsed.success) {
    throw new UnrecoverableError(`invalid pay-withdrawal payload: ${parsed.error.message}`);
  }
  const step = await stepHotWalletWithdrawal(deps.db, deps.wallet, parsed.data.withdrawalId, deps.now());
  if (!SETTLED.has(step.state) && token) {
    await job.moveToDelayed(Date.now() + deps.pollMs, token);
    throw new DelayedError();
  }
  return step.state;
}
