import { JOBS, QUEUES } from "@northstar/shared/jobs";
import { Queue, UnrecoverableError, Worker } from "bullmq";
import type { Redis } from "ioredis";
import { type DailyYieldDeps, processDailyYield } from "../processors/earn/daily-yield.ts";
import {
  CUSTODY_YIELD_PATTERN,
  CUSTODY_YIELD_SCHEDULER_ID,
  custodyYieldWorkerOptions,
} from "./custody-yield.config.ts";

/**
 * The `custody-yield` queue: a BullMQ job scheduler adds a run every hour, and a catch-up run is
 * added at start, so days missed while no worker ran are paid as soon as one is back.
 */
export async function startCustodyYieldWorker(
  connection: Redis,
  prefix: string,
  deps: DailyYieldDeps,
): Promise<{ worker: Worker; queue: Queue }> {
  const queue = new Queue(QUEUES.custodyYield, { connection, prefix });
  await queue.upsertJobScheduler(
    CUSTODY_YIELD_SCHEDULER_ID,
    { pattern: CUSTODY_YIELD_PATTERN, tz: "UTC" },
    { name: JOBS.dailyYield, data: {}, opts: { removeOnComplete: 100, removeOnFail: 100 } },
  );
  await queue.add(JOBS.dailyYield, {}, { removeOnComplete: 100, removeOnFail: 100 });
  const worker = new Worker(
    QUEUES.custodyYield,
    async (job) => {
      switch (job.name) {
        case JOBS.dailyYield:
          return processDailyYield(deps);
        default:
          throw new UnrecoverableError(`unknown job ${job.name}`);
      }
    },
    { ...custodyYieldWorkerOptions, connection, prefix },
  );
  return { worker, queue };
}
