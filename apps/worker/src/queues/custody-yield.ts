import { JOBS, QUEUES } from "@northstar/shared/jobs";
import { Queue, UnrecoverableError, Worker } from "bullmq";
import type { Redis } from "ioredis";
import { type DailyYieldDeps, processDailyYield } from "../processors/earn/daily-yield.ts";
import {
  CUSTODY_YIELD_PATTERN,
  CUSTODY_YIELD_SCHEDULER_ID,
  custodyYieldWorkerOptions,
} from "./custody-yield.config.ts";
import { keepSchedules } from "./schedules.ts";

/**
 * The `custody-yield` queue: a BullMQ job scheduler adds a run every hour, and a catch-up run is
 * added at start, so days missed while no worker ran are paid as soon as one is back.
 */
export async function startCustodyYieldWorker(
  connection: Redis,
  prefix: string,
  deps: DailyYieldDeps,
): Promise<{ worker: Worker; queue: Queue; schedules: { check(): Promise<boolean> } }> {
  const queue = new Queue(QUEUES.custodyYield, { connection, prefix });
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
  const schedules = await keepSchedules(
    queue,
    worker,
    [{ id: CUSTODY_YIELD_SCHEDULER_ID, pattern: CUSTODY_YIELD_PATTERN, job: JOBS.dailyYield }],
    JOBS.dailyYield,
    deps.log,
  );
  return { worker, queue, schedules };
}
