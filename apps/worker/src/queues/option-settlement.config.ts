import type { WorkerOptions } from "bullmq";

/**
 * Each settlement is one short transaction (lock the order, read one tick, post one entry), so many
 * run at once; the pool of database connections is the real limit.
 */
export const optionSettlementWorkerOptions: Omit<WorkerOptions, "connection" | "prefix"> = {
  concurrency: 20,
};

/** The sweeper looks for overdue open orders on start and then this often. */
export const OPTION_SWEEP_INTERVAL_MS = 5000;
/** Old recorded ticks are pruned (policy `options.tickRetentionHours`) at most this often. */
export const OPTION_TICK_PRUNE_INTERVAL_MS = 10 * 60_000;
/** A job that finds no tick at or after its expiry yet looks again this much later. */
export const OPTION_TICK_RETRY_MS = 500;
