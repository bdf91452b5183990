import "@northstar/domain/proofs";
import type { Db } from "@northstar/domain/db";
import { runScheduledReconcile } from "@northstar/domain/ledger";
import { RECONCILE_SLOT_MINUTES } from "../../queues/ledger-reconcile.config.ts";

export interface ReconcileLedgerDeps {
  db: Db;
  now: () => Date;
  log: (line: string) => void;
}

/** The schedule slot a time falls in: a run per slot, however often the job is delivered. */
export function reconcileSlot(at: Date): Date {
  const size = RECONCILE_SLOT_MINUTES * 60_000;
  return new Date(Math.floor(at.getTime() / size) * size);
}

/**
 * Reconciles the ledger (with every module's registered check; importing the proofs module above
 * registers the liabilities check) and records the result for the current slot, once per slot.
 */
export async function processReconcileLedger(deps: ReconcileLedgerDeps) {
  const slot = reconcileSlot(deps.now());
  const { run, ranNow } = await runScheduledReconcile(deps.db, slot, () => deps.now().getTime());
  if (ranNow) {
    deps.log(
      run.ok
        ? `ledger-reconcile: books exact (slot ${slot.toISOString()}, ${run.durationMs} ms)`
        : `ledger-reconcile: ${run.problems} PROBLEM(S) (slot ${slot.toISOString()}):\n${run.summary}`,
    );
  }
  return { slot: slot.toISOString(), ok: run.ok, ranNow };
}
