import { JOBS, QUEUES } from "@northstar/shared/jobs";
import { Queue, UnrecoverableError, Worker } from "bullmq";
import type { Redis } from "ioredis";
import {
  type ChargeOvernightDeps,
  processChargeOvernight,
} from "../processors/contracts/charge-overnight.ts";
import {
  CONTRACT_OVERNIGHT_PATTERN,
  CONTRACT_OVERNIGHT_SCHEDULER_ID,
  contractOvernightWorkerOptions,
} from "./contract-overnight.config.ts";
import { keepSchedules } from "./schedules.ts";

/**
 * The `contract-overnight` queue: a BullMQ job scheduler adds a run every ten minutes, and a
 * catch-up run is added at start, so days missed while no worker ran are charged once one is back.
 */
export async function startContractOvernightWorker(
  connection: Redis,
  prefix: string,
  deps: ChargeOvernightDeps,
): Promise<{ worker: Worker; queue: Queue; schedules: { check(): Promise<boolean> } }> {
  const queue = new Queue(QUEUES.contractOvernight, { connection, prefix });
  const worker = new Worker(
    QUEUES.contractOvernight,
    async (job) => {
      switch (job.name) {
        case JOBS.chargeOvernight:
          return processChargeOvernight(deps);
        default:
          throw new UnrecoverableError(`unknown job ${job.name}`);
      }
    },
    { ...contractOvernightWorkerOptions, connection, prefix },
  );
  const schedules = await keepSchedules(
    queue,
    worker,
    [{ id: CONTRACT_OVERNIGHT_SCHEDULER_ID, pattern: CONTRACT_OVERNIGHT_PATTERN, job: JOBS.chargeOvernight }],
    JOBS.chargeOvernight,
    deps.log,
  );
  return { worker, queue, schedules };
}
