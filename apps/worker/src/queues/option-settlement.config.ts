import type { WorkerOptions } from "bullmq";

/**
 * A job settles every due order in batches of a few statements each, so one at a time is enough: the
 * next slot's job finds what the last one left. Side by side they would skip each other's locked rows
 * and wait for a retry (measured: p99 from expiry to payout 876 ms with three at once, 516 ms with one).
 */
export const optionSettlementWorkerOptions: Omit<WorkerOptions, "connection" | "prefix"> = {
  concurrency: 1,
};

/** The sweeper looks for overdue open orders on start and then this often. */
export const OPTION_SWEEP_INTERVAL_MS = 5000;
/** Old recorded ticks are pruned (policy `options.tickRetentionHours`) at most this often. */
export const OPTION_TICK_PRUNE_INTERVAL_MS = 10 * 60_000;
/** A job that finds an expired order without a tick at or after its expiry looks again this much later, */
export const OPTION_TICK_RETRY_MS = 100;
/** for this long after its instant; then the sweeper settles it when the tick comes. */
export const OPTION_TICK_GIVE_UP_MS = 60_000;
