import { createPayoutScheduler, type HotWallet, hotWalletWork } from "@northstar/domain/chain";
import type { Db } from "@northstar/domain/db";
import { JOBS, QUEUES } from "@northstar/shared/jobs";
import { UnrecoverableError, Worker } from "bullmq";
import type { Redis } from "ioredis";
import { processPayWithdrawal } from "../processors/chain/pay-withdrawal.ts";
import {
  HOT_WALLET_POLL_MS,
  HOT_WALLET_SWEEP_INTERVAL_MS,
  hotWalletWorkerOptions,
} from "./hot-wallet.config.ts";

export interface HotWalletOptions {
  db: Db;
  connection: Redis;
  prefix: string;
  wallet: HotWallet;
  log?: (line: string) => void;
  /** The clock for "is this payout stuck"; tests pass a test clock. */
  now?: () => Date;
  pollMs?: number;
  sweepIntervalMs?: number;
}

/**
 * The `hot-wallet` queue's worker and its sweep. An approval enqueues its withdrawal; the sweep
 * enqueues on start (and every minute) every withdrawal still queued, broadcast or confirming, so a
 * restart catches up with whatever was approved, signed or sent while no worker ran.
 */
export function startHotWallet(options: HotWalletOptions) {
  const { db, connection, prefix, wallet } = options;
  const log = options.log ?? (() => {});
  const now = options.now ?? (() => new Date());
  const pollMs = options.pollMs ?? HOT_WALLET_POLL_MS;
  const scheduler = createPayoutScheduler(connection, prefix, log);
  const worker = new Worker(
    QUEUES.hotWallet,
    async (job, token) => {
      switch (job.name) {
        case JOBS.payWithdrawal:
          return processPayWithdrawal(job, token, { db, wallet, now, pollMs });
        default:
          throw new UnrecoverableError(`unknown job ${job.name}`);
      }
    },
    { ...hotWalletWorkerOptions, connection, prefix },
  );
  worker.on("failed", (job, err) => log(`hot wallet ${job?.id ?? "?"} failed: ${err.message}`));
  let sweeping: Promise<void> = Promise.resolve();
  const sweep = () => {
    sweeping = sweeping.then(async () => {
      try {
        const ids = await hotWalletWork(db);
        for (const id of ids) {
          await scheduler.schedule(id);
        }
        if (ids.length > 0) {
          log(`hot wallet sweep: ${ids.length} withdrawal(s) enqueued`);
        }
      } catch (error) {
        log(`hot wallet sweep failed: ${error instanceof Error ? error.message : error}`);
      }
    });
    return sweeping;
  };
  const started = sweep();
  const timer = setInterval(() => void sweep(), options.sweepIntervalMs ?? HOT_WALLET_SWEEP_INTERVAL_MS);
  return {
    worker,
    scheduler,
    /** Resolves when the sweep run at start has finished. */
    started,
    sweep,
    async close() {
      clearInterval(timer);
      await worker.close();
      await sweeping;
      await scheduler.close();
    },
  };
}
