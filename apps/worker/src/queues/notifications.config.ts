import type { WorkerOptions } from "bullmq";

/**
 * Sending a mail or SMS is network-bound and cheap for us, so 10 run at once. Retries are set
 * per job by the producer (5 attempts, exponential backoff), since a code older than a few minutes
 * is not worth delivering.
 */
export const notificationsWorkerOptions: Omit<WorkerOptions, "connection" | "prefix"> = {
  concurrency: 10,
};
