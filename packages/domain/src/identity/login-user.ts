import type { TLoginRequest } from "@northstar/shared/contracts/identity";
import type { Db } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { codeTarget, findUserByAccount, parseAccountRef } from "./accounts.ts";
import { lockedLogin, loginTarget, wrongLogin } from "./login-password.ts";
import { reserveAttempt, settleWith } from "./secret-attempts.ts";
import { assertHashCapacity, verifySecret } from "./secrets.ts";
import { createSession } from "./sessions.ts";
import { refuseUnknownAccount } from "./unknown-account.ts";

/**
 * web/userLogin. After `identity.login.maxFailures` wrong passwords in a row (through this call or any
 * other that checks the login password) the account is locked for `identity.login.lockMinutes`; while
 * locked even the right password is refused. An unknown account is refused exactly as a wrong
 * password is, so the answer never tells whether it exists.
 */
export async function loginUser(
  db: Db,
  params: { input: TLoginRequest; ip?: string; userAgent?: string },
): Promise<{ token: string; userId: number }> {
  const ref = parseAccountRef(params.input);
  // Refused as busy before any database work while the hash queue is full (a flood of sign-ins).
  assertHashCapacity("anonymous");
  const user = await findUserByAccount(db, ref);
  // Demo accounts enter through web/tempLogin only; to this call they are unknown like any other.
  if (user?.kind !== "real") {
    return refuseUnknownAccount(db, codeTarget(ref).target, params.input.password);
  }
  // A slot is reserved before the hash is compared: parallel guesses never compare more than the limit.
  const attempt = await reserveAttempt(db, loginTarget(user.id));
  if (!attempt.allowed) {
    throw lockedLogin(attempt);
  }
  const verdict = await settleWith(db, attempt.reservation, () =>
    verifySecret(params.input.password, user.passwordHash, "anonymous"),
  );
  if (verdict !== true) {
    throw wrongLogin(verdict);
  }
  if (user.status === "frozen") {
    throw new AppError("ACCOUNT_FROZEN");
  }
  const token = await createSession(db, user.id, { ip: params.ip, userAgent: params.userAgent });
  return { token, userId: user.id };
}
