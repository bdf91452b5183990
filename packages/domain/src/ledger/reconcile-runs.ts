import { desc, sql } from "drizzle-orm";
import type { Db, DbOrTx, Tx } from "../db/client.ts";
import { ledgerReconcileRuns } from "./ledger.table.ts";
import { type ReconciliationReport, reconcileLedger } from "./reconcile.ts";

export type ReconcileRun = typeof ledgerReconcileRuns.$inferSelect;

/** The problems of a report, one line each, in the order the operator's printout lists them. */
export function reconcileProblems(report: ReconciliationReport): string[] {
  return [
    ...report.mismatchedAccounts.map(
      (m) => `account ${m.accountId}: balance ${m.balance}, postings sum ${m.computed}`,
    ),
    ...report.unbalancedCurrencies.map((c) => `book ${c.book} ${c.currency} sums to ${c.sum}`),
    ...report.unbalancedEntries.map((e) => `entry ${e.entryId} ${e.currency} sums to ${e.sum}`),
    ...report.ruleBreaks.map(
      (b) => `rule broken: ${b.systemCode} ${b.book} ${b.currency} ${b.balance} (must be ${b.rule})`,
    ),
    ...report.checks.flatMap((c) => c.problems.map((p) => `${c.name}: ${p}`)),
  ];
}

/**
 * Reconciles the ledger in one repeatable-read snapshot and records the result for the schedule slot
 * `slot`. A slot already recorded is not run again (a job delivered twice, or two workers racing a
 * catch-up), and the stored row is returned.
 */
export async function runScheduledReconcile(
  db: Db,
  slot: Date,
  clock: () => number = Date.now,
): Promise<{ run: ReconcileRun; ranNow: boolean }> {
  const [existing] = await db
    .select()
    .from(ledgerReconcileRuns)
    .where(sql`${ledgerReconcileRuns.slot} = ${slot}`);
  if (existing) {
    return { run: existing, ranNow: false };
  }
  const started = clock();
  const report = await db.transaction(
    async (tx: Tx) => {
      await tx.execute(sql`set transaction read only`);
      return reconcileLedger(tx);
    },
    { isolationLevel: "repeatable read" },
  );
  const problems = reconcileProblems(report);
  const [inserted] = await db
    .insert(ledgerReconcileRuns)
    .values({
      slot,
      ok: report.ok,
      problems: problems.length,
      summary: problems.slice(0, 50).join("\n"),
      durationMs: Math.max(0, clock() - started),
    })
    .onConflictDoNothing()
    .returning();
  if (inserted) {
    return { run: inserted, ranNow: true };
  }
  const [raced] = await db
    .select()
    .from(ledgerReconcileRuns)
    .where(sql`${ledgerReconcileRuns.slot} = ${slot}`);
  return { run: raced as ReconcileRun, ranNow: false };
}

/** The most recent recorded reconciliation, or null before the first. */
export async function latestReconcileRun(db: DbOrTx): Promise<ReconcileRun | null> {
  const [row] = await db.select().from(ledgerReconcileRuns).orderBy(desc(ledgerReconcileRuns.slot)).limit(1);
  return row ?? null;
}

/** The journal's high-water mark: every posting transaction adds one entry, so its rate is postings/s. */
export async function journalEntriesWritten(db: DbOrTx): Promise<number> {
  const result = await db.execute<{ n: string | null }>(sql`select max(id)::text as n from journal_entries`);
  return Number(result.rows[0]?.n ?? 0);
}
