import { JOBS, QUEUES, type TPayWithdrawalJob } from "@northstar/shared/jobs";
import { Queue } from "bullmq";
import type { Redis } from "ioredis";

/** Puts a withdrawal the hot wallet pays on the `hot-wallet` queue. */
export interface PayoutScheduler {
  schedule(withdrawalId: number, delayMs?: number): Promise<void>;
  close(): Promise<void>;
}

/** The job id is the withdrawal's: adding it again while it waits adds nothing. */
export const payoutJobId = (withdrawalId: number) => `pay-withdrawal-${withdrawalId}`;

/**
 * A failure to enqueue does not undo the approval: it has committed, and the worker's sweep picks up
 * every withdrawal the hot wallet still has work on.
 */
export function createPayoutScheduler(
  connection: Redis,
  prefix: string,
  log: (line: string) => void = () => {},
): PayoutScheduler {
  const queue = new Queue<TPayWithdrawalJob>(QUEUES.hotWallet, { connection, prefix });
  return {
    async schedule(withdrawalId, delayMs = 0) {
      try {
        await queue.add(
          JOBS.payWithdrawal,
          { withdrawalId },
          {
            jobId: payoutJobId(withdrawalId),
            delay: delayMs,
            attempts: 20,
            backoff: { type: "exponential", delay: 1000 },
            removeOnComplete: true,
            removeOnFail: { age: 7 * 86_400 },
          },
        );
      } catch (error) {
        log(
          `payout of withdrawal ${withdrawalId} not enqueued: ${error instanceof Error ? error.message : error}`,
        );
      }
    },
    close: () => queue.close(),
  };
}

const schedulers = new WeakMap<Redis, Map<string, PayoutScheduler>>();

/** One scheduler per Redis connection and prefix, for request handlers. */
export function payoutScheduler(connection: Redis, prefix: string): PayoutScheduler {
  const byPrefix = schedulers.get(connection) ?? new Map<string, PayoutScheduler>();
  schedulers.set(connection, byPrefix);
  let scheduler = byPrefix.get(prefix);
  if (!scheduler) {
    scheduler = createPayoutScheduler(connection, prefix);
    byPrefix.set(prefix, scheduler);
  }
  return scheduler;
}
