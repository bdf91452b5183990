import type { Db } from "@northstar/domain/db";
import { settleOption } from "@northstar/domain/options";
import type { TOptionOrderView } from "@northstar/shared/contracts/options";
import { ZSettleOptionJobSchema } from "@northstar/shared/jobs";
import { DelayedError, type Job, UnrecoverableError } from "bullmq";

export interface SettleOptionDeps {
  db: Db;
  /** The clock that decides whether an order has expired; tests move it. */
  now: () => Date;
  /** How long to wait before looking again for the first tick at or after the expiry. */
  retryMs: number;
  onSettled: (order: TOptionOrderView, userId: number) => void;
}

/**
 * Settles one order. An order settled before (the job delivered twice, or the sweeper first) changes
 * nothing. When no tick at or after the expiry is recorded yet the job waits and looks again: the
 * price is never taken from before the expiry or made up.
 */
export async function processSettleOption(job: Job, token: string | undefined, deps: SettleOptionDeps) {
  const parsed = ZSettleOptionJobSchema.safeParse(job.data);
  if (!parsed.success) {
    throw new UnrecoverableError(`invalid settle-option payload: ${parsed.error.message}`);
  }
  const result = await settleOption(deps.db, parsed.data.orderId, deps.now());
  if (result.state === "settled") {
    deps.onSettled(result.order, result.userId);
  }
  if ((result.state === "waiting" || result.state === "not_due") && token) {
    await job.moveToDelayed(Date.now() + deps.retryMs, token);
    throw new DelayedError();
  }
  return result.state;
}
