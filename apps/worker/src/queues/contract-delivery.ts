import { JOBS, QUEUES } from "@northstar/shared/jobs";
import { Queue, UnrecoverableError, Worker } from "bullmq";
import type { Redis } from "ioredis";
import {
  type DeliverContractsDeps,
  processDeliverContracts,
} from "../processors/contracts/deliver-contracts.ts";
import { processPruneContractTicks } from "../processors/contracts/prune-ticks.ts";
import {
  CONTRACT_DELIVERY_PATTERN,
  CONTRACT_DELIVERY_SCHEDULER_ID,
  CONTRACT_TICK_PRUNE_PATTERN,
  CONTRACT_TICK_PRUNE_SCHEDULER_ID,
  contractDeliveryWorkerOptions,
} from "./contract-delivery.config.ts";
import { keepSchedules } from "./schedules.ts";

/**
 * The `contract-delivery` queue: a BullMQ job scheduler adds a run every minute, and a
 * catch-up run is added at start, so expiries missed while no worker ran are settled once one is back.
 * A second scheduler runs the recorded ticks' retention once an hour.
 */
export async function startContractDeliveryWorker(
  connection: Redis,
  prefix: string,
  deps: DeliverContractsDeps,
): Promise<{ worker: Worker; queue: Queue; schedules: { check(): Promise<boolean> } }> {
  const queue = new Queue(QUEUES.contractDelivery, { connection, prefix });
  const worker = new Worker(
    QUEUES.contractDelivery,
    async (job) => {
      switch (job.name) {
        case JOBS.deliverContracts:
          return processDeliverContracts(deps);
        case JOBS.pruneContractTicks:
          return processPruneContractTicks(deps);
        default:
          throw new UnrecoverableError(`unknown job ${job.name}`);
      }
    },
    { ...contractDeliveryWorkerOptions, connection, prefix },
  );
  const schedules = await keepSchedules(
    queue,
    worker,
    [
      { id: CONTRACT_DELIVERY_SCHEDULER_ID, pattern: CONTRACT_DELIVERY_PATTERN, job: JOBS.deliverContracts },
      {
        id: CONTRACT_TICK_PRUNE_SCHEDULER_ID,
        pattern: CONTRACT_TICK_PRUNE_PATTERN,
        job: JOBS.pruneContractTicks,
      },
    ],
    JOBS.deliverContracts,
    deps.log,
  );
  return { worker, queue, schedules };
}
