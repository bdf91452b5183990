import { inArray } from "drizzle-orm";
import { currencies } from "../currencies/currencies.table.ts";
import type { DbOrTx } from "../db/client.ts";
import { addPolicyCheck } from "../policy/index.ts";
import { CHAINS } from "./address-format.ts";

/** Whether every code names a currency the platform holds. */
async function knownCurrencies(db: DbOrTx, codes: string[]): Promise<boolean> {
  if (codes.length === 0) {
    return true;
  }
  const rows = await db
    .select({ code: currencies.code })
    .from(currencies)
    .where(inArray(currencies.code, codes));
  return rows.length === new Set(codes).size;
}

// Policy values that name currencies and chains must name real ones: a withdrawal rule for a currency
// that does not exist, or a chain no address can be checked for, could never be met.
addPolicyCheck("funding.withdraw.chains", async (db, value) => {
  const chains = value as Record<string, string[]>;
  return (
    Object.values(chains).every((list) => list.every((chain) => CHAINS.includes(chain))) &&
    (await knownCurrencies(db, Object.keys(chains)))
  );
});
addPolicyCheck("funding.deposit.minimums", (db, value) =>
  knownCurrencies(db, Object.keys(value as Record<string, string>)),
);
