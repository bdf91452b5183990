import { JOBS, QUEUES, type TSettleOptionsDueJob } from "@northstar/shared/jobs";
import { Queue } from "bullmq";
import type { Redis } from "ioredis";

/** Schedules the settlement of orders expiring at an instant. */
export interface SettlementScheduler {
  schedule(expiresAt: Date, now?: Date): Promise<void>;
  close(): Promise<void>;
}

/** Expiries are grouped into slots this long: one job settles every order of its slot. */
export const SETTLEMENT_SLOT_MS = 100;

/** The end of the slot an expiry falls in: the job runs then and settles everything due. */
export const settlementDueAt = (expiresAt: Date) =>
  Math.ceil(expiresAt.getTime() / SETTLEMENT_SLOT_MS) * SETTLEMENT_SLOT_MS;

/** The job id is the slot's: adding it again while it waits (the slot's next order) adds nothing. */
export const settlementJobId = (dueAt: number) => `option-due-${dueAt}`;

/**
 * A delayed job on the `option-settlement` queue per slot of expiries. A failure to enqueue is not the
 * buyer's problem: the purchase has committed and the worker's sweeper settles anything overdue.
 */
export function createSettlementScheduler(
  connection: Redis,
  prefix: string,
  log: (line: string) => void = () => {},
): SettlementScheduler {
  const queue = new Queue<TSettleOptionsDueJob>(QUEUES.optionSettlement, { connection, prefix });
  return {
    async schedule(expiresAt, now = new Date()) {
      const dueAt = settlementDueAt(expiresAt);
      try {
        await queue.add(
          JOBS.settleOptionsDue,
          { dueAt },
          {
            jobId: settlementJobId(dueAt),
            delay: Math.max(0, dueAt - now.getTime()),
            attempts: 20,
            backoff: { type: "fixed", delay: 1000 },
            removeOnComplete: true,
            removeOnFail: { age: 7 * 86_400 },
          },
        );
      } catch (error) {
        log(
          `option settlement at ${new Date(dueAt).toISOString()} not enqueued: ${error instanceof Error ? error.message : error}`,
        );
      }
    },
    close: () => queue.close(),
  };
}

const schedulers = new WeakMap<Redis, Map<string, SettlementScheduler>>();

/** One scheduler per Redis connection and prefix, for request handlers. */
export function settlementScheduler(connection: Redis, prefix: string): SettlementScheduler {
  const byPrefix = schedulers.get(connection) ?? new Map<string, SettlementScheduler>();
  schedulers.set(connection, byPrefix);
  let scheduler = byPrefix.get(prefix);
  if (!scheduler) {
    scheduler = createSettlementScheduler(connection, prefix);
    byPrefix.set(prefix, scheduler);
  }
  return scheduler;
}
