import { asc, desc, eq, or } from "drizzle-orm";
import type { DbOrTx } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { listMoneyRecords } from "../funding/records.ts";
import { users } from "../identity/identity.table.ts";
import { getUserBalances } from "../ledger/balances.ts";
import { auditLog } from "./admin.table.ts";

/** An operator looks a user up by uid, email or phone: balances in both books and recent ledger lines. */
export async function lookupUser(db: DbOrTx, query: string) {
  const [user] = await db
    .select()
    .from(users)
    .where(or(eq(users.uid, query), eq(users.email, query.toLowerCase()), eq(users.phone, query)))
    // One user's uid could be another's phone: the oldest account answers, the same each time.
    .orderBy(asc(users.id))
    .limit(1);
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

export function listAuditLog(db: DbOrTx, limit = 200) {
  return db.select().from(auditLog).orderBy(desc(auditLog.id)).limit(limit);
}
