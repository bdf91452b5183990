import { and, desc, eq, type SQL } from "drizzle-orm";
import type { DbOrTx } from "../db/client.ts";
import type { User } from "../identity/accounts.ts";
import { journalEntries, ledgerAccounts, postings } from "../ledger/ledger.table.ts";
import { bookOf } from "./transfers.ts";

/**
 * The user's money records: every ledger posting on their accounts, newest first, with the reason
 * (the entry kind, translated on screen) and the reference of the business row behind it.
 */
export async function listMoneyRecords(
  db: DbOrTx,
  user: User,
  params: { wallet?: string; currency?: string; kind?: string; page: number; pageSize: number },
) {
  const conditions: SQL[] = [eq(ledgerAccounts.userId, user.id), eq(ledgerAccounts.book, bookOf(user))];
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
