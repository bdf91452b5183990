import { sql } from "drizzle-orm";
import type { DbOrTx } from "../db/client.ts";

export interface ReconciliationReport {
  ok: boolean;
  /** Accounts whose stored balance differs from the sum of their postings. */
  mismatchedAccounts: { accountId: number; balance: string; computed: string }[];
  /** (book, currency) pairs whose balances do not sum to zero. */
  unbalancedCurrencies: { book: string; currency: string; sum: string }[];
  /** Entries whose postings do not sum to zero in some currency. */
  unbalancedEntries: { entryId: number; currency: string; sum: string }[];
  /** Users' total (available + held) per book and currency, for the operator's printout. */
  totals: { book: string; currency: string; users: string; system: string }[];
  /** What the checks registered by modules above the ledger found (the proof of liabilities'). */
  checks: ReconcileCheckResult[];
}

export interface ReconcileCheckResult {
  /** What was checked, e.g. `liabilities` or `latest-proof`. */
  name: string;
  ok: boolean;
  /** The figures compared, one line each, for the operator's printout. */
  lines: string[];
  /** What does not hold, one line each (empty when ok). */
  problems: string[];
}

type ReconcileCheck = (db: DbOrTx) => Promise<ReconcileCheckResult[]>;
const reconcileChecks = new Set<ReconcileCheck>();

/**
 * Lets a module above the ledger add a check to every reconciliation (the proofs module checks that
 * what it publishes equals the ledger's user claims) without the ledger reading its tables.
 */
export function addReconcileCheck(check: ReconcileCheck): void {
  reconcileChecks.add(check);
}

/**
 * Recomputes every balance from the postings and checks that each currency sums to zero in each
 * book. Runs in one repeatable-read snapshot when given a transaction, so concurrent writes cannot
 * produce a false alarm.
 */
export async function reconcileLedger(db: DbOrTx): Promise<ReconciliationReport> {
  const mismatched = await db.execute<{ account_id: number; balance: string; computed: string }>(sql`
    select a.id as account_id, a.balance::text as balance, coalesce(sum(p.amount), 0)::text as computed
    from ledger_accounts a left join postings p on p.account_id = a.id
    group by a.id
    having a.balance <> coalesce(sum(p.amount), 0)
    order by a.id`);
  const currencies = await db.execute<{ book: string; currency: string; sum: string }>(sql`
    select book, currency, sum(balance)::text as sum from ledger_accounts
    group by book, currency having sum(balance) <> 0
    order by book, currency`);
  const entries = await db.execute<{ entry_id: number; currency: string; sum: string }>(sql`
    select entry_id, currency, sum(amount)::text as sum from postings
    group by entry_id, currency having sum(amount) <> 0
    order by entry_id, currency`);
  const totals = await db.execute<{ book: string; currency: string; users: string; system: string }>(sql`
    select book, currency,
      coalesce(sum(balance) filter (where user_id is not null), 0)::text as users,
      coalesce(sum(balance) filter (where system_code is not null), 0)::text as system
    from ledger_accounts group by book, currency order by book, currency`);
  const report: ReconciliationReport = {
    ok: false,
    mismatchedAccounts: mismatched.rows.map((r) => ({
      accountId: Number(r.account_id),
      balance: r.balance,
      computed: r.computed,
    })),
    unbalancedCurrencies: currencies.rows,
    unbalancedEntries: entries.rows.map((r) => ({
      entryId: Number(r.entry_id),
      currency: r.currency,
      sum: r.sum,
    })),
    totals: totals.rows,
    checks: [],
  };
  for (const check of reconcileChecks) {
    report.checks.push(...(await check(db)));
  }
  report.ok =
    report.mismatchedAccounts.length === 0 &&
    report.unbalancedCurrencies.length === 0 &&
    report.unbalancedEntries.length === 0 &&
    report.checks.every((c) => c.ok);
  return report;
}
