import type { TLoginRequest } from "@northstar/shared/contracts/identity";
import { and, eq, isNull, lte, or, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { getPolicy } from "../policy/index.ts";
import { codeTarget, findUserByAccount, parseAccountRef } from "./accounts.ts";
import { users } from "./identity.table.ts";
import { verifySecret } from "./secrets.ts";
import { createSession } from "./sessions.ts";
import { refuseUnknownAccount } from "./unknown-account.ts";

/**
 * web/userLogin. After `identity.login.maxFailures` wrong passwords in a row the account is locked
 * for `identity.login.lockMinutes`; while locked even the right password is refused. An unknown
 * account is refused exactly as a wrong password is, so the answer never tells whether it exists.
 */
export async function loginUser(
  db: Db,
  params: { input: TLoginRequest; ip?: string; userAgent?: string },
): Promise<{ token: string; userId: number }> {
  const ref = parseAccountRef(params.input);
  const user = await findUserByAccount(db, ref);
  // Demo accounts enter through web/tempLogin only; to this call they are unknown like any other.
  if (user?.kind !== "real") {
    return refuseUnknownAccount(db, codeTarget(ref).target, params.input.password);
  }
  const lockMinutes = await getPolicy(db, "identity.login.lockMinutes");
  if (user.lockedUntil && user.lockedUntil.getTime() > Date.now()) {
    const minutes = Math.ceil((user.lockedUntil.getTime() - Date.now()) / 60_000);
    throw new AppError("ACCOUNT_LOCKED", { minutes });
  }
  if (!(await verifySecret(params.input.password, user.passwordHash))) {
    const maxFailures = await getPolicy(db, "identity.login.maxFailures");
    const lockUntil = new Date(Date.now() + lockMinutes * 60_000);
    const reachesLimit = sql`${users.failedLogins} + 1 >= ${maxFailures}`;
    // Counted and locked in one statement, and only while not locked: parallel wrong guesses cannot
    // slip past the limit, nor restart the count under a lock another request just set.
    const [row] = await db
      .update(users)
      .set({
        failedLogins: sql`case when ${reachesLimit} then 0 else ${users.failedLogins} + 1 end`,
        lockedUntil: sql`case when ${reachesLimit} then ${lockUntil.toISOString()}::timestamptz else ${users.lockedUntil} end`,
      })
      .where(and(eq(users.id, user.id), notLocked()))
      .returning({ failedLogins: users.failedLogins, lockedUntil: users.lockedUntil });
    if (!row || (row.lockedUntil && row.lockedUntil.getTime() > Date.now())) {
      throw new AppError("ACCOUNT_LOCKED", { minutes: lockMinutes });
    }
    throw new AppError("WRONG_CREDENTIALS", { remaining: maxFailures - row.failedLogins }, "password");
  }
  if (user.status === "frozen") {
    throw new AppError("ACCOUNT_FROZEN");
  }
  // Clears the count, unless a parallel wrong guess locked the account since it was read above.
  const [unlocked] = await db
    .update(users)
    .set({ failedLogins: 0, lockedUntil: null })
    .where(and(eq(users.id, user.id), notLocked()))
    .returning({ id: users.id });
  if (!unlocked) {
    throw new AppError("ACCOUNT_LOCKED", { minutes: lockMinutes });
  }
  const token = await createSession(db, user.id, { ip: params.ip, userAgent: params.userAgent });
  return { token, userId: user.id };
}

const notLocked = () => or(isNull(users.lockedUntil), lte(users.lockedUntil, new Date()));
