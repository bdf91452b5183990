import { JOBS, QUEUES } from "@northstar/shared/jobs";
import { Queue, UnrecoverableError, Worker } from "bullmq";
import type { Redis } from "ioredis";
import { processReconcileLedger, type ReconcileLedgerDeps } from "../processors/ledger/reconcile-ledger.ts";
import {
  LEDGER_RECONCILE_PATTERN,
  LEDGER_RECONCILE_SCHEDULER_ID,
  ledgerReconcileWorkerOptions,
} from "./ledger-reconcile.config.ts";

/** The `ledger-reconcile` queue: a scheduler every slot plus a catch-up run at start. */
export async function startLedgerReconcileWorker(
  connection: Redis,
  prefix: string,
  deps: ReconcileLedgerDeps,
): Promise<{ worker: Worker; queue: Queue }> {
  const queue = new Queue(QUEUES.ledgerReconcile, { connection, prefix });
  const opts = { removeOnComplete: 100, removeOnFail: 100 };
  await queue.upsertJobScheduler(
    LEDGER_RECONCILE_SCHEDULER_ID,
    { pattern: LEDGER_RECONCILE_PATTERN, tz: "UTC" },
    { name: JOBS.reconcileLedger, data: {}, opts },
  );
  await queue.add(JOBS.reconcileLedger, {}, opts);
  const worker = new Worker(
    QUEUES.ledgerReconcile,
    async (job) => {
      switch (job.name) {
        case JOBS.reconcileLedger:
          return processReconcileLedger(deps);
        default:
          throw new UnrecoverableError(`unknown job ${job.name}`);
      }
    },
    { ...ledgerReconcileWorkerOptions, connection, prefix },
  );
  return { worker, queue };
}
