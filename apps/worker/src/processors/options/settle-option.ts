import type { Db } from "@northstar/domain/db";
import { type SettledOption, settleDueOptions } from "@northstar/domain/options";
import { ZSettleOptionsDueJobSchema } from "@northstar/shared/jobs";
import { DelayedError, type Job, UnrecoverableError } from "bullmq";

export interface SettleOptionsDeps {
  db: Db;
  /** The clock that decides whether an order has expired; tests move it. */
  now: () => Date;
  /** How long to wait before looking again for ticks at or after the expiries. */
  retryMs: number;
  /** After this long past its instant a job stops waiting for ticks and leaves the rest to the sweeper. */
  giveUpMs: number;
  onSettled: (batch: SettledOption[]) => void;
}

/**
 * Settles every order expired by the job's instant (and any other overdue one) in batches. A job run
 * twice settles nothing the second time. While an expired order has no tick at or after its expiry
 * yet, the job waits and looks again: the price is never taken from before the expiry or made up.
 */
export async function processSettleOptionsDue(job: Job, token: string | undefined, deps: SettleOptionsDeps) {
  const parsed = ZSettleOptionsDueJobSchema.safeParse(job.data);
  if (!parsed.success) {
    throw new UnrecoverableError(`invalid settle-options-due payload: ${parsed.error.message}`);
  }
  const { dueAt } = parsed.data;
  const now = deps.now();
  const early = dueAt - now.getTime();
  if (early > 0 && token) {
    // Delivered before its instant by this process's clock (the queue's clock runs ahead of it).
    await job.moveToDelayed(Date.now() + early, token);
    throw new DelayedError();
  }
  const { settled, waiting } = await settleDueOptions(deps.db, now, deps.onSettled);
  if (waiting > 0 && now.getTime() - dueAt < deps.giveUpMs && token) {
    await job.moveToDelayed(Date.now() + deps.retryMs, token);
    throw new DelayedError();
  }
  return settled;
}
