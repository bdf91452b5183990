import type { TLoginRequest } from "@northstar/shared/contracts/identity";
import { eq, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { getPolicy } from "../policy/index.ts";
import { findUserByAccount, parseAccountRef } from "./accounts.ts";
import { users } from "./identity.table.ts";
import { verifySecret } from "./secrets.ts";
import { createSession } from "./sessions.ts";

/**
 * web/userLogin. After `identity.login.maxFailures` wrong passwords in a row the account is locked
 * for `identity.login.lockMinutes`; while locked even the right password is refused.
 */
export async function loginUser(
  db: Db,
  params: { input: TLoginRequest; ip?: string; userAgent?: string },
): Promise<{ token: string; userId: number }> {
  const ref = parseAccountRef(params.input);
  const user = await findUserByAccount(db, ref);
  if (user?.kind !== "real") {
    throw new AppError("ACCOUNT_NOT_FOUND", {}, "account");
  }
  const lockMinutes = await getPolicy(db, "identity.login.lockMinutes");
  if (user.lockedUntil && user.lockedUntil.getTime() > Date.now()) {
    const minutes = Math.ceil((user.lockedUntil.getTime() - Date.now()) / 60_000);
    throw new AppError("ACCOUNT_LOCKED", { minutes });
  }
  if (!(await verifySecret(params.input.password, user.passwordHash))) {
    const maxFailures = await getPolicy(db, "identity.login.maxFailures");
    // Counted atomically, so parallel wrong guesses cannot slip past the limit.
    const [row] = await db
      .update(users)
      .set({ failedLogins: sql`${users.failedLogins} + 1` })
      .where(eq(users.id, user.id))
      .returning({ failedLogins: users.failedLogins });
    const failures = row?.failedLogins ?? maxFailures;
    if (failures >= maxFailures) {
      await db
        .update(users)
        .set({ failedLogins: 0, lockedUntil: new Date(Date.now() + lockMinutes * 60_000) })
        .where(eq(users.id, user.id));
      throw new AppError("ACCOUNT_LOCKED", { minutes: lockMinutes });
    }
    throw new AppError("WRONG_CREDENTIALS", { remaining: maxFailures - failures }, "password");
  }
  if (user.status === "frozen") {
    throw new AppError("ACCOUNT_FROZEN");
  }
  if (user.failedLogins > 0 || user.lockedUntil) {
    await db.update(users).set({ failedLogins: 0, lockedUntil: null }).where(eq(users.id, user.id));
  }
  const token = await createSession(db, user.id, { ip: params.ip, userAgent: params.userAgent });
  return { token, userId: user.id };
}
