import { and, desc, eq, type SQL } from "drizzle-orm";
import type { DbOrTx } from "../db/client.ts";
import { type Book, journalEntries, ledgerAccounts, postings } from "./ledger.table.ts";

/** The book an account holder's money lives in: a demo account's in the demo book, everyone else's in the real one. */
export const bookOf = (holder: { kind: string }): Book => (holder.kind === "demo" ? "demo" : "real");

/**
 * Every posting on one user's accounts in one book, newest first, with the entry's kind and the
 * reference of the business row behind it.
 */
export async function listUserPostings(
  db: DbOrTx,
  params: {
    userId: number;
    book: Book;
    wallet?: string;
    currency?: string;
    kind?: string;
    page: number;
    pageSize: number;
  },
) {
  const conditions: SQL[] = [eq(ledgerAccounts.userId, params.userId), eq(ledgerAccounts.book, params.book)];
  if (params.wallet) {
    conditions.push(eq(ledgerAccounts.wallet, params.wallet as never));
  }
  if (params.currency) {
    conditions.push(eq(ledgerAccounts.currency, params.currency));
  }
  if (params.kind) {
    conditions.push(eq(journalEntries.kind, params.kind));
  }
  const rows = await db
    .select({
      id: postings.id,
      time: postings.createdAt,
      kind: journalEntries.kind,
      referenceType: journalEntries.referenceType,
      referenceId: journalEntries.referenceId,
      wallet: ledgerAccounts.wallet,
      bucket: ledgerAccounts.bucket,
      currency: postings.currency,
      amount: postings.amount,
      balanceAfter: postings.balanceAfter,
    })
    .from(postings)
    .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, postings.accountId))
    .innerJoin(journalEntries, eq(journalEntries.id, postings.entryId))
    .where(and(...conditions))
    .orderBy(desc(postings.id))
    .limit(params.pageSize)
    .offset((params.page - 1) * params.pageSize);
  return rows.map((r) => ({ ...r, time: Math.floor(r.time.getTime() / 1000) }));
}
