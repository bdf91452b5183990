import { JOBS, QUEUES, type TExpireC2cOrderJob } from "@northstar/shared/jobs";
import { Queue } from "bullmq";
import type { Redis } from "ioredis";

/** Schedules the expiry job of an order for its deadline. */
export interface C2cExpiryScheduler {
  schedule(orderId: number, expiresAt: Date, now?: Date): Promise<void>;
  close(): Promise<void>;
}

/** The job id is the order's: adding it again while it waits adds nothing. */
export const c2cExpiryJobId = (orderId: number) => `c2c-expiry-${orderId}`;

/**
 * A delayed job on the `c2c-expiry` queue per order. A failure to enqueue does not undo the order:
 * it has committed, and the worker's sweep expires anything past its deadline.
 */
export function createC2cExpiryScheduler(
  connection: Redis,
  prefix: string,
  log: (line: string) => void = () => {},
): C2cExpiryScheduler {
  const queue = new Queue<TExpireC2cOrderJob>(QUEUES.c2cExpiry, { connection, prefix });
  return {
    async schedule(orderId, expiresAt, now = new Date()) {
      try {
        await queue.add(
          JOBS.expireC2cOrder,
          { orderId },
          {
            jobId: c2cExpiryJobId(orderId),
            delay: Math.max(0, expiresAt.getTime() - now.getTime()),
            attempts: 20,
            backoff: { type: "exponential", delay: 1000 },
            removeOnComplete: true,
            removeOnFail: { age: 7 * 86_400 },
          },
        );
      } catch (error) {
        log(`c2c expiry of order ${orderId} not enqueued: ${error instanceof Error ? error.message : error}`);
      }
    },
    close: () => queue.close(),
  };
}

const schedulers = new WeakMap<Redis, Map<string, C2cExpiryScheduler>>();

/** One scheduler per Redis connection and prefix, for request handlers. */
export function c2cExpiryScheduler(connection: Redis, prefix: string): C2cExpiryScheduler {
  const byPrefix = schedulers.get(connection) ?? new Map<string, C2cExpiryScheduler>();
  schedulers.set(connection, byPrefix);
  let scheduler = byPrefix.get(prefix);
  if (!scheduler) {
    scheduler = createC2cExpiryScheduler(connection, prefix);
    byPrefix.set(prefix, scheduler);
  }
  return scheduler;
}
