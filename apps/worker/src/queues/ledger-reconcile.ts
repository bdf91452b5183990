import { JOBS, QUEUES } from "@northstar/shared/jobs";
import { Queue, UnrecoverableError, Worker } from "bullmq";
import type { Redis } from "ioredis";
import { processReconcileLedger, type ReconcileLedgerDeps } from "../processors/ledger/reconcile-ledger.ts";
import {
  LEDGER_RECONCILE_PATTERN,
  LEDGER_RECONCILE_SCHEDULER_ID,
  ledgerReconcileWorkerOptions,
} from "./ledger-reconcile.config.ts";
import { keepSchedules } from "./schedules.ts";

/** The `ledger-reconcile` queue: a scheduler every slot plus a catch-up run at start. */
export async function startLedgerReconcileWorker(
  connection: Redis,
  prefix: string,
  deps: ReconcileLedgerDeps,
): Promise<{ worker: Worker; queue: Queue; schedules: { check(): Promise<boolean> } }> {
  const queue = new Queue(QUEUES.ledgerReconcile, { connection, prefix });
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
  const schedules = await keepSchedules(
    queue,
    worker,
    [{ id: LEDGER_RECONCILE_SCHEDULER_ID, pattern: LEDGER_RECONCILE_PATTERN, job: JOBS.reconcileLedger }],
    JOBS.reconcileLedger,
    deps.log,
  );
  return { worker, queue, schedules };
}
