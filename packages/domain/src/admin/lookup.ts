import type { DbOrTx } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { listMoneyRecords } from "../funding/index.ts";
import { findUserByLookup } from "../identity/index.ts";
import { getUserBalances } from "../ledger/index.ts";

/** An operator looks a user up by uid, email or phone: balances in both books and recent ledger lines. */
export async function lookupUser(db: DbOrTx, query: string) {
  const user = await findUserByLookup(db, query);
  if (!user) {
    throw new AppError("NOT_FOUND");
  }
  return {
    id: user.id,
    uid: user.uid,
    email: user.email,
    phone: user.phone,
    kind: user.kind,
    status: user.status,
    createdAt: user.createdAt,
    balances: {
      real: await getUserBalances(db, user.id, "real"),
      demo: await getUserBalances(db, user.id, "demo"),
    },
    ledger: await listMoneyRecords(db, user, { page: 1, pageSize: 100 }),
  };
}
