import type { WorkerOptions } from "bullmq";

/**
 * One run at a time: a run settles every expired delivery position, each in its own transaction
 * under its row lock. The scheduler fires every minute (a position whose price at expiry is not
 * recorded yet waits for the next run) and once at start, so expiries missed while no worker ran
 * are settled when one is back.
 */
export const contractDeliveryWorkerOptions: Omit<WorkerOptions, "connection" | "prefix"> = {
  concurrency: 1,
};

export const CONTRACT_DELIVERY_SCHEDULER_ID = "contract-delivery-minutely";
export const CONTRACT_DELIVERY_PATTERN = "* * * * *";

/** Recorded ticks no position needs any more are deleted once an hour (policy contracts.tickRetentionDays). */
export const CONTRACT_TICK_PRUNE_SCHEDULER_ID = "contract-tick-prune-hourly";
export const CONTRACT_TICK_PRUNE_PATTERN = "17 * * * *";
