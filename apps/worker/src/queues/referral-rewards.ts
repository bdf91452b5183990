import { JOBS, QUEUES } from "@northstar/shared/jobs";
import { Queue, UnrecoverableError, Worker } from "bullmq";
import type { Redis } from "ioredis";
import {
  processReferralRewards,
  type ReferralRewardsDeps,
} from "../processors/referral/pay-referral-rewards.ts";
import {
  REFERRAL_REWARDS_PATTERN,
  REFERRAL_REWARDS_SCHEDULER_ID,
  referralRewardsWorkerOptions,
} from "./referral-rewards.config.ts";
import { keepSchedules } from "./schedules.ts";

/**
 * The `referral-rewards` queue: a BullMQ job scheduler adds a run every day, and a catch-up run is
 * added at start, so days missed while no worker ran are paid as soon as one is back.
 */
export async function startReferralRewardsWorker(
  connection: Redis,
  prefix: string,
  deps: ReferralRewardsDeps,
): Promise<{ worker: Worker; queue: Queue; schedules: { check(): Promise<boolean> } }> {
  const queue = new Queue(QUEUES.referralRewards, { connection, prefix });
  const worker = new Worker(
    QUEUES.referralRewards,
    async (job) => {
      switch (job.name) {
        case JOBS.payReferralRewards:
          return processReferralRewards(deps);
        default:
          throw new UnrecoverableError(`unknown job ${job.name}`);
      }
    },
    { ...referralRewardsWorkerOptions, connection, prefix },
  );
  const schedules = await keepSchedules(
    queue,
    worker,
    [{ id: REFERRAL_REWARDS_SCHEDULER_ID, pattern: REFERRAL_REWARDS_PATTERN, job: JOBS.payReferralRewards }],
    JOBS.payReferralRewards,
    deps.log,
  );
  return { worker, queue, schedules };
}
