import { JOBS, QUEUES } from "@northstar/shared/jobs";
import { Queue, UnrecoverableError, Worker } from "bullmq";
import type { Redis } from "ioredis";
import { processUnlockCoins, type UnlockCoinsDeps } from "../processors/launchpad/unlock-coins.ts";
import {
  LAUNCHPAD_UNLOCK_PATTERN,
  LAUNCHPAD_UNLOCK_SCHEDULER_ID,
  launchpadUnlockWorkerOptions,
} from "./launchpad-unlock.config.ts";
import { keepSchedules } from "./schedules.ts";

/** The `launchpad-unlock` queue: a job scheduler every 10 minutes plus a catch-up run at start. */
export async function startLaunchpadUnlockWorker(
  connection: Redis,
  prefix: string,
  deps: UnlockCoinsDeps,
): Promise<{ worker: Worker; queue: Queue; schedules: { check(): Promise<boolean> } }> {
  const queue = new Queue(QUEUES.launchpadUnlock, { connection, prefix });
  const worker = new Worker(
    QUEUES.launchpadUnlock,
    async (job) => {
      switch (job.name) {
        case JOBS.unlockCoins:
          return processUnlockCoins(deps);
        default:
          throw new UnrecoverableError(`unknown job ${job.name}`);
      }
    },
    { ...launchpadUnlockWorkerOptions, connection, prefix },
  );
  const schedules = await keepSchedules(
    queue,
    worker,
    [{ id: LAUNCHPAD_UNLOCK_SCHEDULER_ID, pattern: LAUNCHPAD_UNLOCK_PATTERN, job: JOBS.unlockCoins }],
    JOBS.unlockCoins,
    deps.log,
  );
  return { worker, queue, schedules };
}
