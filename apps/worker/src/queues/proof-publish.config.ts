import type { WorkerOptions } from "bullmq";

/** One run at a time; the scheduler fires daily just after midnight UTC and once at start (catch-up). */
export const proofPublishWorkerOptions: Omit<WorkerOptions, "connection" | "prefix"> = {
  concurrency: 1,
};

export const PROOF_PUBLISH_SCHEDULER_ID = "proof-publish-daily";
export const PROOF_PUBLISH_PATTERN = "10 0 * * *";
