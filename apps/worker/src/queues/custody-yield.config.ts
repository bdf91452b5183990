import type { WorkerOptions } from "bullmq";

/**
 * One run at a time: each run pays every order due by its instant, each order in its own
 * transaction under a row lock, so two runs would only wait on each other. The scheduler fires
 * hourly (a day's yield is due from 00:00 UTC; a worker that was down pays the missed days on its
 * next run) and once at start.
 */
export const custodyYieldWorkerOptions: Omit<WorkerOptions, "connection" | "prefix"> = {
  concurrency: 1,
};

export const CUSTODY_YIELD_SCHEDULER_ID = "custody-yield-hourly";
export const CUSTODY_YIELD_PATTERN = "5 * * * *";
