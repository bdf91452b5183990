import type { WorkerOptions } from "bullmq";

/** One run at a time; the scheduler fires every slot, and once at start (catch-up). */
export const ledgerReconcileWorkerOptions: Omit<WorkerOptions, "connection" | "prefix"> = {
  concurrency: 1,
};

/** A reconciliation reads every account and posting: often enough to alert within the slot, no more. */
export const RECONCILE_SLOT_MINUTES = 15;
export const LEDGER_RECONCILE_SCHEDULER_ID = "ledger-reconcile";
export const LEDGER_RECONCILE_PATTERN = `*/${RECONCILE_SLOT_MINUTES} * * * *`;
