import { and, asc, eq, isNotNull, sql } from "drizzle-orm";
import type { DbOrTx } from "../db/client.ts";
import { type Book, ledgerAccounts, type Wallet } from "./ledger.table.ts";

export interface WalletBalance {
  wallet: Wallet;
  currency: string;
  available: string;
  held: string;
}

/** A user's balances in one book, a row per wallet and currency with available and held, by wallet then currency. */
export async function getUserBalances(db: DbOrTx, userId: number, book: Book): Promise<WalletBalance[]> {
  const rows = await db
    .select()
    .from(ledgerAccounts)
    .where(
      and(eq(ledgerAccounts.userId, userId), eq(ledgerAccounts.book, book), isNotNull(ledgerAccounts.wallet)),
    )
    .orderBy(asc(ledgerAccounts.wallet), asc(ledgerAccounts.currency), asc(ledgerAccounts.bucket));
  const byKey = new Map<string, WalletBalance>();
  for (const row of rows) {
    const wallet = row.wallet as Wallet;
    const key = `${wallet}|${row.currency}`;
    const entry = byKey.get(key) ?? { wallet, currency: row.currency, available: "0", held: "0" };
    if (row.bucket === "held") {
      entry.held = row.balance;
    } else {
      entry.available = row.balance;
    }
    byKey.set(key, entry);
  }
  return [...byKey.values()];
}

/**
 * Every user's total (available + held, all wallets) per currency in a book, by user and currency:
 * what the platform owes its users. Call it in a repeatable-read transaction for a snapshot.
 */
export async function userLiabilities(
  db: DbOrTx,
  book: Book,
): Promise<{ userId: number; currency: string; total: string }[]> {
  const rows = await db.execute<{ user_id: string; currency: string; total: string }>(sql`
    select user_id, currency, sum(balance)::text as total from ledger_accounts
    where user_id is not null and book = ${book}
    group by user_id, currency
    order by user_id, currency`);
  return rows.rows.map((r) => ({ userId: Number(r.user_id), currency: r.currency, total: r.total }));
}

/**
 * Every user account of a book with a balance, by user, currency, wallet and bucket: the proof of
 * liabilities breaks each user's claim down from these. Call it in a repeatable-read transaction.
 */
export async function userAccountBalances(
  db: DbOrTx,
  book: Book,
  userId?: number,
): Promise<
  { userId: number; wallet: Wallet; bucket: "available" | "held"; currency: string; balance: string }[]
> {
  const rows = await db.execute<{
    user_id: string;
    wallet: Wallet;
    bucket: "available" | "held";
    currency: string;
    balance: string;
  }>(sql`
    select user_id, wallet, bucket, currency, balance::text as balance from ledger_accounts
    where user_id is not null and book = ${book}${userId === undefined ? sql`` : sql` and user_id = ${userId}`}
    order by user_id, currency, wallet, bucket`);
  return rows.rows.map((r) => ({
    userId: Number(r.user_id),
    wallet: r.wallet,
    bucket: r.bucket,
    currency: r.currency,
    balance: r.balance,
  }));
}

/**
 * The balance per currency of a book's system accounts whose code is `code` or, with `prefix`,
 * starts with it (`c2c_reserved:` sums every merchant's), by currency.
 */
export async function systemBalance(
  db: DbOrTx,
  book: Book,
  code: string,
  prefix = false,
): Promise<{ currency: string; balance: string }[]> {
  const rows = await db.execute<{ currency: string; balance: string }>(sql`
    select currency, sum(balance)::text as balance from ledger_accounts
    where book = ${book} and ${prefix ? sql`starts_with(system_code, ${code})` : sql`system_code = ${code}`}
    group by currency
    order by currency`);
  return rows.rows;
}
