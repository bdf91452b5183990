import { sql } from "drizzle-orm";
import type { DbOrTx } from "../db/client.ts";
import { SYSTEM_RULE_SQL, type SystemAccountSign, systemAccountRule } from "./system-accounts.ts";

export interface ReconciliationReport {
  ok: boolean;
  /** Accounts whose stored balance differs from the sum of their postings. */
  mismatchedAccounts: { accountId: number; balance: string; computed: string }[];
  /** (book, currency) pairs whose balances do not sum to zero. */
  unbalancedCurrencies: { book: string; currency: string; sum: string }[];
  /** Entries whose postings do not sum to zero in some currency. */
  unbalancedEntries: { entryId: number; currency: string; sum: string }[];
  /**
   * System accounts whose balance breaks their sign rule (`SYSTEM_ACCOUNT_RULES`): written before the
   * rule existed, or past a constraint someone removed. Posting refuses new ones.
   */
  ruleBreaks: {
    accountId: number;
    systemCode: string;
    book: string;
    currency: string;
    balance: string;
    rule: SystemAccountSign;
  }[];
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
 * Recomputes every balance from the postings, checks that each currency sums to zero in each
 * book and that every system account keeps its sign rule. Runs in one repeatable-read snapshot when given a transaction, so concurrent writes cannot
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
  const breaks = await db.execute<{
    id: number;
    system_code: string;
    book: string;
    currency: string;
    balance: string;
  }>(sql`
    select id, system_code, book, currency, balance::text as balance from ledger_accounts
    where not (${sql.raw(SYSTEM_RULE_SQL)})
    order by system_code, book, currency, id`);
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
    ruleBreaks: breaks.rows.map((r) => ({
      accountId: Number(r.id),
      systemCode: r.system_code,
      book: r.book,
      currency: r.currency,
      balance: r.balance,
      rule: systemAccountRule(r.system_code).sign,
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
    report.ruleBreaks.length === 0 &&
    report.checks.every((c) => c.ok);
  return report;
}

/** A user's balance finer than its currency's decimals: dust the user could not move out whole. */
export interface DustBalance {
  accountId: number;
  userId: number;
  wallet: string;
  bucket: string;
  currency: string;
  decimals: number;
  balance: string;
}

/**
 * Every user account whose balance has more decimals than its currency is held to. Amounts the
 * platform computes (fees, yields, payouts, margins, quotes) are rounded to the currency's decimals
 * before they are posted, so this is empty; a test runs it after series of operations.
 */
export async function findDustBalances(db: DbOrTx): Promise<DustBalance[]> {
  const rows = await db.execute<{
    id: string;
    user_id: string;
    wallet: string;
    bucket: string;
    currency: string;
    decimals: number;
    balance: string;
  }>(sql`
    select a.id, a.user_id, a.wallet, a.bucket, a.currency, c.decimals, a.balance::text as balance
    from ledger_accounts a join currencies c on c.code = a.currency
    where a.user_id is not null and a.balance <> trunc(a.balance, c.decimals)
    order by a.id`);
  return rows.rows.map((r) => ({
    accountId: Number(r.id),
    userId: Number(r.user_id),
    wallet: r.wallet,
    bucket: r.bucket,
    currency: r.currency,
    decimals: Number(r.decimals),
    balance: r.balance,
  }));
}
