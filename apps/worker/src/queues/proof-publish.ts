import { JOBS, QUEUES } from "@northstar/shared/jobs";
import { Queue, UnrecoverableError, Worker } from "bullmq";
import type { Redis } from "ioredis";
import { type PublishProofDeps, processPublishProof } from "../processors/proofs/publish-proof.ts";
import {
  PROOF_PUBLISH_PATTERN,
  PROOF_PUBLISH_SCHEDULER_ID,
  proofPublishWorkerOptions,
} from "./proof-publish.config.ts";
import { keepSchedules } from "./schedules.ts";

/** The `proof-publish` queue: a daily job scheduler plus a catch-up run at start. */
export async function startProofPublishWorker(
  connection: Redis,
  prefix: string,
  deps: PublishProofDeps,
): Promise<{ worker: Worker; queue: Queue; schedules: { check(): Promise<boolean> } }> {
  const queue = new Queue(QUEUES.proofPublish, { connection, prefix });
  const worker = new Worker(
    QUEUES.proofPublish,
    async (job) => {
      switch (job.name) {
        case JOBS.publishProof:
          return processPublishProof(deps);
        default:
          throw new UnrecoverableError(`unknown job ${job.name}`);
      }
    },
    { ...proofPublishWorkerOptions, connection, prefix },
  );
  const schedules = await keepSchedules(
    queue,
    worker,
    [{ id: PROOF_PUBLISH_SCHEDULER_ID, pattern: PROOF_PUBLISH_PATTERN, job: JOBS.publishProof }],
    JOBS.publishProof,
    deps.log,
  );
  return { worker, queue, schedules };
}
