import { JOBS, QUEUES } from "@northstar/shared/jobs";
import { Queue, UnrecoverableError, Worker } from "bullmq";
import type { Redis } from "ioredis";
import { type PublishProofDeps, processPublishProof } from "../processors/proofs/publish-proof.ts";
import {
  PROOF_PUBLISH_PATTERN,
  PROOF_PUBLISH_SCHEDULER_ID,
  proofPublishWorkerOptions,
} from "./proof-publish.config.ts";

/** The `proof-publish` queue: a daily job scheduler plus a catch-up run at start. */
export async function startProofPublishWorker(
  connection: Redis,
  prefix: string,
  deps: PublishProofDeps,
): Promise<{ worker: Worker; queue: Queue }> {
  const queue = new Queue(QUEUES.proofPublish, { connection, prefix });
  await queue.upsertJobScheduler(
    PROOF_PUBLISH_SCHEDULER_ID,
    { pattern: PROOF_PUBLISH_PATTERN, tz: "UTC" },
    { name: JOBS.publishProof, data: {}, opts: { removeOnComplete: 100, removeOnFail: 100 } },
  );
  await queue.add(JOBS.publishProof, {}, { removeOnComplete: 100, removeOnFail: 100 });
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
  return { worker, queue };
}
