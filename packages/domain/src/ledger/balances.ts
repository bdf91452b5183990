import { and, asc, eq, isNotNull } from "drizzle-orm";
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
