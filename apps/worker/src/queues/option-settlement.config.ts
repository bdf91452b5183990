import type { WorkerOptions } from "bullmq";

/**
 * A job settles every due order in batches of a few statements each; jobs of neighbouring slots
 * running side by side skip each other's locked rows and share the work. A few at once keep the
 * database busy without queueing on its connection pool.
 */
export const optionSettlementWorkerOptions: Omit<WorkerOptions, "connection" | "prefix"> = {
  concurrency: 3,
};

/** The sweeper looks for overdue open orders on start and then this often. */
export const OPTION_SWEEP_INTERVAL_MS = 5000;
/** Old recorded ticks are pruned (policy `options.tickRetentionHours`) at most this often. */
export const OPTION_TICK_PRUNE_INTERVAL_MS = 10 * 60_000;
/** A job that finds an expired order without a tick at or after its expiry looks again this much later, */
export const OPTION_TICK_RETRY_MS = 500;
/** for this long after its instant; then the sweeper settles it when the tick comes. */
export const OPTION_TICK_GIVE_UP_MS = 60_000;
