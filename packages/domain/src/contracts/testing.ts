import { MoneyDecimal } from "@northstar/shared/money";
import type { Db } from "../db/client.ts";
import type { User } from "../identity/index.ts";
import { type Book, getUserBalances } from "../ledger/index.ts";
import { createTrader } from "../spot/testing.ts";

/** Test helpers of the contracts module (tests and the bench import them by path; not exported). */

/** A user with `funds` USDT in the contract wallet (spot's test trader, funded in that wallet). */
export function newContractUser(db: Db, funds: string, kind: Book = "real"): Promise<User> {
  return createTrader(db, new MoneyDecimal(funds).isZero() ? {} : { USDT: funds }, kind, "contract");
}

/** The user's contract wallet: available and held, as plain decimals. */
export async function contractWallet(db: Db, userId: number, book: Book = "real") {
  const row = (await getUserBalances(db, userId, book)).find(
    (b) => b.wallet === "contract" && b.currency === "USDT",
  );
  return {
    available: new MoneyDecimal(row?.available ?? 0).toFixed(),
    held: new MoneyDecimal(row?.held ?? 0).toFixed(),
  };
}
