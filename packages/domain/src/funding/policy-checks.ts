import { allCurrenciesKnown as knownCurrencies } from "../currencies/index.ts";
import { addPolicyCheck } from "../policy/index.ts";
import { CHAINS } from "./address-format.ts";

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
