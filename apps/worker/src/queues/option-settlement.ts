import type { Db } from "@northstar/domain/db";
import { publishUserEvents } from "@northstar/domain/messages";
import { pruneOldTicks, type SettledOption, settleDueOptions } from "@northstar/domain/options";
import { JOBS, QUEUES } from "@northstar/shared/jobs";
import { UnrecoverableError, Worker } from "bullmq";
import type { Redis } from "ioredis";
import { processSettleOptionsDue } from "../processors/options/settle-option.ts";
import {
  OPTION_SWEEP_INTERVAL_MS,
  OPTION_TICK_GIVE_UP_MS,
  OPTION_TICK_PRUNE_INTERVAL_MS,
  OPTION_TICK_RETRY_MS,
  optionSettlementWorkerOptions,
} from "./option-settlement.config.ts";

export interface OptionSettlementOptions {
  db: Db;
  connection: Redis;
  prefix: string;
  log?: (line: string) => void;
  /** The clock for "has it expired"; tests pass a test clock. */
  now?: () => Date;
  sweepIntervalMs?: number;
}

/**
 * The `option-settlement` queue's worker and its sweeper. A delayed job per 100 ms slot of expiries
 * settles, set-based, every order due at its instant; the sweeper settles on start (and every few
 * seconds) whatever expired while no worker ran, so orders are caught up after downtime. Each settled
 * order is announced on its buyer's `user` channel, a batch in one round trip to Redis.
 */
export function startOptionSettlement(options: OptionSettlementOptions) {
  const { db, connection, prefix } = options;
  const log = options.log ?? (() => {});
  const now = options.now ?? (() => new Date());
  const onSettled = (batch: SettledOption[]) => {
    void publishUserEvents(
      connection,
      prefix,
      batch.map(({ order, userId }) => ({ userId, data: { type: "option.order", order } })),
    ).catch(() => {});
  };
  const worker = new Worker(
    QUEUES.optionSettlement,
    async (job, token) => {
      switch (job.name) {
        case JOBS.settleOptionsDue:
          return processSettleOptionsDue(job, token, {
            db,
            now,
            retryMs: OPTION_TICK_RETRY_MS,
            giveUpMs: OPTION_TICK_GIVE_UP_MS,
            onSettled,
          });
        default:
          throw new UnrecoverableError(`unknown job ${job.name}`);
      }
    },
    { ...optionSettlementWorkerOptions, connection, prefix },
  );
  worker.on("failed", (job, err) => log(`option settlement ${job?.id ?? "?"} failed: ${err.message}`));
  let sweeping: Promise<void> = Promise.resolve();
  let prunedAt = Number.NEGATIVE_INFINITY;
  const sweep = () => {
    sweeping = sweeping.then(async () => {
      try {
        const { settled, waiting } = await settleDueOptions(db, now(), onSettled);
        if (settled > 0 || waiting > 0) {
          log(`option sweeper: ${settled} settled, ${waiting} waiting for a tick`);
        }
        // The recorder stores a tick per instrument every 200 ms: old ones nothing needs are pruned.
        if (now().getTime() - prunedAt >= OPTION_TICK_PRUNE_INTERVAL_MS) {
          prunedAt = now().getTime();
          const pruned = await pruneOldTicks(db, now());
          if (pruned > 0) {
            log(`option sweeper: ${pruned} old ticks pruned`);
          }
        }
      } catch (error) {
        log(`option sweeper failed: ${error instanceof Error ? error.message : error}`);
      }
    });
    return sweeping;
  };
  const started = sweep();
  const timer = setInterval(() => void sweep(), options.sweepIntervalMs ?? OPTION_SWEEP_INTERVAL_MS);
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
