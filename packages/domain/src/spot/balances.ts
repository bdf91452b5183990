import { MoneyDecimal } from "@northstar/shared/money";
import type { DbOrTx } from "../db/client.ts";
import type { User } from "../identity/index.ts";
import { bookOf, getUserBalances } from "../ledger/index.ts";
import { getSpotInstrument } from "./terms.ts";

/** The user's base and quote balances of a spot market, in the exchange wallet of their book. */
export async function getSpotBalances(db: DbOrTx, user: User, symbol: string) {
  const instrument = await getSpotInstrument(db, symbol);
  const rows = await getUserBalances(db, user.id, bookOf(user));
  const of = (currency: string) => {
    const row = rows.find((r) => r.wallet === "exchange" && r.currency === currency);
    return {
      currency,
      available: new MoneyDecimal(row?.available ?? "0").toFixed(),
      held: new MoneyDecimal(row?.held ?? "0").toFixed(),
    };
  };
  return { base: of(instrument.base), quote: of(instrument.quote) };
}
