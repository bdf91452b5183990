import { JOBS, QUEUES, type TSettleOptionJob } from "@northstar/shared/jobs";
import { Queue } from "bullmq";
import type { Redis } from "ioredis";

/** Schedules the settlement job of an order for its expiry instant. */
export interface SettlementScheduler {
  schedule(orderId: number, expiresAt: Date, now?: Date): Promise<void>;
  close(): Promise<void>;
}

/** The job id is the order's: adding it again while it waits adds nothing. */
export const settlementJobId = (orderId: number) => `option-${orderId}`;

/**
 * A delayed job on the `option-settlement` queue per order. A failure to enqueue is not the buyer's
 * problem: the purchase has committed and the worker's sweeper settles anything overdue.
 */
export function createSettlementScheduler(
  connection: Redis,
  prefix: string,
  log: (line: string) => void = () => {},
): SettlementScheduler {
  const queue = new Queue<TSettleOptionJob>(QUEUES.optionSettlement, { connection, prefix });
  return {
    async schedule(orderId, expiresAt, now = new Date()) {
      try {
        await queue.add(
          JOBS.settleOption,
          { orderId },
          {
            jobId: settlementJobId(orderId),
            delay: Math.max(0, expiresAt.getTime() - now.getTime()),
            attempts: 20,
            backoff: { type: "fixed", delay: 1000 },
            removeOnComplete: true,
            removeOnFail: { age: 7 * 86_400 },
          },
        );
      } catch (error) {
        log(
          `option settlement of order ${orderId} not enqueued: ${error instanceof Error ? error.message : error}`,
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
