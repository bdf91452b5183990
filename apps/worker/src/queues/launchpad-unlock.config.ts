import type { WorkerOptions } from "bullmq";

/** One run at a time; the scheduler fires every 10 minutes and once at start (catch-up). */
export const launchpadUnlockWorkerOptions: Omit<WorkerOptions, "connection" | "prefix"> = {
  concurrency: 1,
};

export const LAUNCHPAD_UNLOCK_SCHEDULER_ID = "launchpad-unlock-10min";
export const LAUNCHPAD_UNLOCK_PATTERN = "*/10 * * * *";
