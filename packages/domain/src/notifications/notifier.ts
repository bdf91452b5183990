import { JOBS, QUEUES, type TSendCodeJob, ZSendCodeJobSchema } from "@northstar/shared/jobs";
import { Queue } from "bullmq";
import type { Redis } from "ioredis";

/** What the domain needs to send a message; the API and tests hand in a BullMQ-backed one. */
export interface Notifier {
  sendCode(job: TSendCodeJob): Promise<void>;
  close(): Promise<void>;
}

/**
 * Enqueues messages on the `notifications` queue; the worker delivers them (SMTP or SMS provider)
 * with retries, so a slow mail server never slows a request.
 */
export function createQueueNotifier(connection: Redis, prefix: string): Notifier {
  const queue = new Queue(QUEUES.notifications, { connection, prefix });
  return {
    async sendCode(job) {
      const payload = ZSendCodeJobSchema.parse(job);
      await queue.add(JOBS.sendCode, payload, {
        // Retries cover a mail server that is briefly down; past ~2 minutes the code is stale anyway.
        attempts: 5,
        backoff: { type: "exponential", delay: 2000 },
        // The payload holds the code in clear: keep it in Redis no longer than delivery takes.
        removeOnComplete: true,
        removeOnFail: { age: 3600 },
      });
    },
    close: () => queue.close(),
  };
}
