import { JOBS, QUEUES } from "@northstar/shared/jobs";
import { UnrecoverableError, Worker } from "bullmq";
import type { Redis } from "ioredis";
import { processSendCode, type SendCodeDeps } from "../processors/notifications/send-code.ts";
import { notificationsWorkerOptions } from "./notifications.config.ts";

export function startNotificationsWorker(connection: Redis, prefix: string, deps: SendCodeDeps): Worker {
  return new Worker(
    QUEUES.notifications,
    async (job) => {
      switch (job.name) {
        case JOBS.sendCode:
          return processSendCode(job.data, deps);
        default:
          throw new UnrecoverableError(`unknown job ${job.name}`);
      }
    },
    { ...notificationsWorkerOptions, connection, prefix },
  );
}
