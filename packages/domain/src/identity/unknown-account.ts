import type { Db } from "../db/client.ts";
import { lockedLogin, wrongLogin } from "./login-password.ts";
import { reserveAttempt, settleWith } from "./secret-attempts.ts";
import { hashSecret, verifySecret } from "./secrets.ts";

// Hashed once per process: checking a password against it costs what checking a real one does.
let dummyHash: Promise<string> | undefined;

/**
 * Answers a login to an account that does not exist exactly as a wrong password on a real one:
 * the same hash work, the same count of remaining attempts, and the same lock after
 * `identity.login.maxFailures` tries. Without the count, "attempts left" that never falls (or a lock
 * that never comes) would tell a prober which accounts exist. Kept per account name, as a real
 * user's count is kept per user.
 */
export async function refuseUnknownAccount(db: Db, target: string, password: string): Promise<never> {
  const attempt = await reserveAttempt(db, { kind: "unknown_account_login", subject: `account:${target}` });
  if (!attempt.allowed) {
    throw lockedLogin(attempt);
  }
  dummyHash ??= hashSecret(`unknown-account:${Math.random()}`);
  const hash = await dummyHash;
  const failure = await settleWith(db, attempt.reservation, async () => {
    await verifySecret(password, hash, "anonymous");
    return false;
  });
  if (failure === true) {
    throw new Error("unreachable: an unknown account has no right password");
  }
  throw wrongLogin(failure);
}
