import type { DbOrTx } from "../db/client.ts";
import type { User } from "../identity/index.ts";
import { bookOf, getUserBalances } from "../ledger/index.ts";
import { CONTRACT_CURRENCY } from "./money-moves.ts";

/** The user's contract wallet in USDT: available to open with, and held as margin. */
export async function getContractBalance(
  db: DbOrTx,
  user: User,
): Promise<{ currency: string; available: string; held: string }> {
  const row = (await getUserBalances(db, user.id, bookOf(user))).find(
    (b) => b.wallet === "contract" && b.currency === CONTRACT_CURRENCY,
  );
  return { currency: CONTRACT_CURRENCY, available: row?.available ?? "0", held: row?.held ?? "0" };
}
