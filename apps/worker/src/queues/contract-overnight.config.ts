import type { WorkerOptions } from "bullmq";

/**
 * One run at a time: a run charges every (position, day) due, each in its own transaction under
 * the position's row lock, so two runs would only wait on each other. The scheduler fires every
 * ten minutes (a day is due from the policy hour; a worker that was down charges the missed days on
 * its next run) and once at start.
 */
export const contractOvernightWorkerOptions: Omit<WorkerOptions, "connection" | "prefix"> = {
  concurrency: 1,
};

export const CONTRACT_OVERNIGHT_SCHEDULER_ID = "contract-overnight-10min";
export const CONTRACT_OVERNIGHT_PATTERN = "*/10 * * * *";
