import { expireDueC2cOrders } from "@northstar/domain/c2c";
import type { Db } from "@northstar/domain/db";
import { JOBS, QUEUES } from "@northstar/shared/jobs";
import { UnrecoverableError, Worker } from "bullmq";
import type { Redis } from "ioredis";
import { processExpireC2cOrder } from "../processors/c2c/expire-order.ts";
import { C2C_SWEEP_INTERVAL_MS, c2cExpiryWorkerOptions } from "./c2c-expiry.config.ts";

export interface C2cExpiryOptions {
  db: Db;
  connection: Redis;
  prefix: string;
  log?: (line: string) => void;
  /** The clock for "has the deadline come"; tests pass a test clock. */
  now?: () => Date;
  sweepIntervalMs?: number;
}

/**
 * The `c2c-expiry` queue's worker and its sweep. Each order's delayed job expires it at its deadline
 * (3 hours after the match by default); the sweep expires on start (and every minute) whatever fell
 * due while no worker ran, so the reserved stock is released after downtime too, and once.
 */
export function startC2cExpiry(options: C2cExpiryOptions) {
  const { db, connection, prefix } = options;
  const log = options.log ?? (() => {});
  const now = options.now ?? (() => new Date());
  const worker = new Worker(
    QUEUES.c2cExpiry,
    async (job, token) => {
      switch (job.name) {
        case JOBS.expireC2cOrder:
          return processExpireC2cOrder(job, token, { db, now });
        default:
          throw new UnrecoverableError(`unknown job ${job.name}`);
      }
    },
    { ...c2cExpiryWorkerOptions, connection, prefix },
  );
  worker.on("failed", (job, err) => log(`c2c expiry ${job?.id ?? "?"} failed: ${err.message}`));
  let sweeping: Promise<void> = Promise.resolve();
  const sweep = () => {
    sweeping = sweeping.then(async () => {
      try {
        const expired = await expireDueC2cOrders(db, now());
        if (expired > 0) {
          log(`c2c sweep: ${expired} order(s) expired`);
        }
      } catch (error) {
        log(`c2c sweep failed: ${error instanceof Error ? error.message : error}`);
      }
    });
    return sweeping;
  };
  const started = sweep();
  const timer = setInterval(() => void sweep(), options.sweepIntervalMs ?? C2C_SWEEP_INTERVAL_MS);
  return {
    worker,
    /** Resolves when the sweep run at start has finished. */
    started,
    sweep,
    async close() {
      clearInterval(timer);
      await worker.close();
      await sweeping;
    },
  };
}
