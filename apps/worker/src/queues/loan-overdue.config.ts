import type { WorkerOptions } from "bullmq";

/**
 * One run at a time: each run charges every loan due by its instant, each loan in its own
 * transaction under a row lock, so two runs would only wait on each other. The scheduler fires
 * daily just after 00:00 UTC (a late-fee day starts at 00:00 UTC); a worker that was down charges
 * the missed days on its start-up run.
 */
export const loanOverdueWorkerOptions: Omit<WorkerOptions, "connection" | "prefix"> = {
  concurrency: 1,
};

export const LOAN_OVERDUE_SCHEDULER_ID = "loan-overdue-daily";
export const LOAN_OVERDUE_PATTERN = "5 0 * * *";
