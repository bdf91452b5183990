import type { WorkerOptions } from "bullmq";

/**
 * One run at a time: a run pays each ended day in its own transaction behind the day's run row, so a
 * second run would only wait for the first and then find the day paid. The scheduler fires daily
 * just after 00:00 UTC (a referral day is a UTC day); a worker that was down pays the missed days on
 * its start-up run.
 */
export const referralRewardsWorkerOptions: Omit<WorkerOptions, "connection" | "prefix"> = {
  concurrency: 1,
};

export const REFERRAL_REWARDS_SCHEDULER_ID = "referral-rewards-daily";
export const REFERRAL_REWARDS_PATTERN = "15 0 * * *";
