import type { DbOrTx } from "../db/client.ts";
import type { User } from "../identity/index.ts";
import { bookOf, listUserPostings } from "../ledger/index.ts";

/**
 * The user's money records: every ledger posting on their accounts, newest first, with the reason
 * (the entry kind, translated on screen) and the reference of the business row behind it.
 */
export function listMoneyRecords(
  db: DbOrTx,
  user: User,
  params: { wallet?: string; currency?: string; kind?: string; page: number; pageSize: number },
) {
  return listUserPostings(db, { ...params, userId: user.id, book: bookOf(user) });
}
