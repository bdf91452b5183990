import { expireC2cOrder } from "@northstar/domain/c2c";
import type { Db } from "@northstar/domain/db";
import { ZExpireC2cOrderJobSchema } from "@northstar/shared/jobs";
import { DelayedError, type Job, UnrecoverableError } from "bullmq";

export interface ExpireC2cOrderDeps {
  db: Db;
  /** The clock that decides whether the deadline has come; tests move it. */
  now: () => Date;
}

/**
 * Expires one order at its deadline. An order already paid (the proof stopped its clock), ended, or
 * expired before (the job delivered twice, or the sweep first) changes nothing. A job that finds the
 * deadline moved later (the order was matched after it was created) waits until the new deadline.
 */
export async function processExpireC2cOrder(job: Job, token: string | undefined, deps: ExpireC2cOrderDeps) {
  const parsed = ZExpireC2cOrderJobSchema.safeParse(job.data);
  if (!parsed.success) {
    throw new UnrecoverableError(`invalid expire-c2c-order payload: ${parsed.error.message}`);
  }
  const result = await expireC2cOrder(deps.db, parsed.data.orderId, deps.now());
  if (result.state === "not_due" && token) {
    const wait = Math.max(1, result.expiresAt.getTime() - deps.now().getTime());
    await job.moveToDelayed(Date.now() + wait, token);
    throw new DelayedError();
  }
  return result.state;
}
