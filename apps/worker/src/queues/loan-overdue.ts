import { JOBS, QUEUES } from "@northstar/shared/jobs";
import { Queue, UnrecoverableError, Worker } from "bullmq";
import type { Redis } from "ioredis";
import { type LoanOverdueDeps, processLoanOverdue } from "../processors/loans/mark-loans-overdue.ts";
import {
  LOAN_OVERDUE_PATTERN,
  LOAN_OVERDUE_SCHEDULER_ID,
  loanOverdueWorkerOptions,
} from "./loan-overdue.config.ts";
import { keepSchedules } from "./schedules.ts";

/**
 * The `loan-overdue` queue: a BullMQ job scheduler adds a run every day, and a catch-up run is added
 * at start, so days missed while no worker ran are charged as soon as one is back.
 */
export async function startLoanOverdueWorker(
  connection: Redis,
  prefix: string,
  deps: LoanOverdueDeps,
): Promise<{ worker: Worker; queue: Queue; schedules: { check(): Promise<boolean> } }> {
  const queue = new Queue(QUEUES.loanOverdue, { connection, prefix });
  const worker = new Worker(
    QUEUES.loanOverdue,
    async (job) => {
      switch (job.name) {
        case JOBS.markLoansOverdue:
          return processLoanOverdue(deps);
        default:
          throw new UnrecoverableError(`unknown job ${job.name}`);
      }
    },
    { ...loanOverdueWorkerOptions, connection, prefix },
  );
  const schedules = await keepSchedules(
    queue,
    worker,
    [{ id: LOAN_OVERDUE_SCHEDULER_ID, pattern: LOAN_OVERDUE_PATTERN, job: JOBS.markLoansOverdue }],
    JOBS.markLoansOverdue,
    deps.log,
  );
  return { worker, queue, schedules };
}
