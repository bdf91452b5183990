import type { DbOrTx } from "../db/client.ts";
import type { User } from "../identity/index.ts";
import { bookOf, getUserBalances } from "../ledger/index.ts";
import { OPTION_CURRENCY } from "./buy-option.ts";

/** What the user can spend on options: the USDT available in the option wallet of their book. */
export async function getOptionBalance(
  db: DbOrTx,
  user: User,
): Promise<{ currency: string; available: string }> {
  const row = (await getUserBalances(db, user.id, bookOf(user))).find(
    (b) => b.wallet === "option" && b.currency === OPTION_CURRENCY,
  );
  return { currency: OPTION_CURRENCY, available: row?.available ?? "0" };
}
