import { sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  boolean,
  check,
  index,
  integer,
  numeric,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { SYSTEM_RULE_CONSTRAINT, SYSTEM_RULE_SQL } from "./system-accounts.ts";

export const BOOKS = ["real", "demo"] as const;
export const WALLETS = ["exchange", "contract", "option", "futures", "earn", "loan"] as const;
export const BUCKETS = ["available", "held"] as const;
export type Book = (typeof BOOKS)[number];
export type Wallet = (typeof WALLETS)[number];
export type Bucket = (typeof BUCKETS)[number];

/**
 * A ledger account. A user's is keyed by (user, book, wallet, currency, bucket); a system account
 * (fees, house, clearing per channel, demo faucet, market maker…) by (system code, book, currency).
 * User balances can never go negative (CHECK); a system account keeps the sign rule of its code
 * (`SYSTEM_ACCOUNT_RULES`, a second CHECK built from that table).
 */
export const ledgerAccounts = pgTable(
  "ledger_accounts",
  {
    id: bigserial({ mode: "number" }).primaryKey(),
    userId: bigint({ mode: "number" }),
    systemCode: text(),
    book: text({ enum: BOOKS }).notNull(),
    wallet: text({ enum: WALLETS }),
    currency: text().notNull(),
    bucket: text({ enum: BUCKETS }).notNull().default("available"),
    balance: numeric({ precision: 38, scale: 18 }).notNull().default("0"),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("ledger_accounts_user_key")
      .on(t.userId, t.book, t.wallet, t.currency, t.bucket)
      .where(sql`${t.userId} is not null`),
    uniqueIndex("ledger_accounts_system_key")
      .on(t.systemCode, t.book, t.currency)
      .where(sql`${t.systemCode} is not null`),
    check("ledger_accounts_owner", sql`(${t.userId} is null) <> (${t.systemCode} is null)`),
    check("ledger_accounts_user_not_negative", sql`${t.systemCode} is not null or ${t.balance} >= 0`),
    // Added NOT VALID (its migration): balances written before the rule are reported by
    // reconciliation, not refused by the migration; every new write is checked.
    check(SYSTEM_RULE_CONSTRAINT, sql.raw(SYSTEM_RULE_SQL)),
  ],
);

/** One balance change: two or more postings summing to zero per currency, applied once per key. */
export const journalEntries = pgTable(
  "journal_entries",
  {
    id: bigserial({ mode: "number" }).primaryKey(),
    idempotencyKey: text().notNull().unique(),
    book: text({ enum: BOOKS }).notNull(),
    /** What happened, e.g. deposit.confirm, withdrawal.hold, spot.fill; also the i18n key of the reason. */
    kind: text().notNull(),
    /** The business row this entry belongs to, e.g. ("deposit", "42"). */
    referenceType: text().notNull(),
    referenceId: text().notNull(),
    memo: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("journal_entries_reference_idx").on(t.referenceType, t.referenceId),
    // Daily jobs read one day's entries (the referral run's trading fees).
    index("journal_entries_created_at_idx").on(t.createdAt),
  ],
);

/**
 * A posting's entry and account must exist: checked once per inserting statement by the trigger
 * `postings_references_exist` (migration 0044), not by foreign keys. A foreign key checks each row
 * alone and locks the row it finds (a lock record per posting on an entry just written), which cost
 * about a third of the ledger statement. Entries and accounts can be neither deleted nor re-keyed
 * (triggers of the same migration), so what the check found stays true.
 */
export const postings = pgTable(
  "postings",
  {
    id: bigserial({ mode: "number" }).primaryKey(),
    entryId: bigint({ mode: "number" }).notNull(),
    accountId: bigint({ mode: "number" }).notNull(),
    currency: text().notNull(),
    /** Signed: positive credits the account, negative debits it. */
    amount: numeric({ precision: 38, scale: 18 }).notNull(),
    /** The account's balance right after this posting, for statements without a window sum. */
    balanceAfter: numeric({ precision: 38, scale: 18 }).notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("postings_account_idx").on(t.accountId, t.id), index("postings_entry_idx").on(t.entryId)],
);

/**
 * The scheduled reconciliations' results, one row per slot (the worker's `ledger-reconcile` job), so
 * that operators and the metrics endpoint see when the books were last proven and what broke.
 */
export const ledgerReconcileRuns = pgTable("ledger_reconcile_runs", {
  /** The start of the schedule slot this run belongs to: a job delivered twice writes one row. */
  slot: timestamp({ withTimezone: true }).primaryKey(),
  ok: boolean().notNull(),
  /** Mismatched accounts + unbalanced currencies + unbalanced entries + rule breaks + failed checks. */
  problems: integer().notNull(),
  /** The problems as the operator's printout lists them (empty when ok). */
  summary: text().notNull(),
  durationMs: integer().notNull(),
  ranAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});
