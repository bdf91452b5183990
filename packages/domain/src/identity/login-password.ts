import type { Db } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { type Attempt, checkSecretLimited, type SecretTarget, userSubject } from "./secret-attempts.ts";
import { verifySecret } from "./secrets.ts";

/**
 * The login password has one attempt limit (`identity.login.maxFailures`, `identity.login.lockMinutes`)
 * whichever call checks it: logging in, setting the trade password or security questions, changing
 * the password with the old one. Otherwise those calls would be a way to guess it past the lock.
 */
export const loginTarget = (userId: number): SecretTarget => ({
  kind: "login_password",
  subject: userSubject(userId),
});

/** Confirms a signed-in user's login password, naming `field` in the refusal (wrong or locked). */
export function checkLoginPassword(
  db: Db,
  user: { id: number; passwordHash: string },
  password: string,
  field: string,
): Promise<void> {
  return checkSecretLimited(
    db,
    loginTarget(user.id),
    { wrong: "OLD_PASSWORD_WRONG", locked: "ACCOUNT_LOCKED", field },
    () => verifySecret(password, user.passwordHash),
  );
}

/**
 * The refusal of a login whose attempt was taken and whose password was wrong: the attempts left,
 * or the lock when this attempt set it (no answer tells of tries left once locked).
 */
export function wrongLogin(attempt: Extract<Attempt, { allowed: true }>): AppError {
  return attempt.locksNow
    ? new AppError("ACCOUNT_LOCKED", { minutes: attempt.lockMinutes })
    : new AppError("WRONG_CREDENTIALS", { remaining: attempt.maxFailures - attempt.failures }, "password");
}

/** The refusal of a login attempted while locked. */
export function lockedLogin(attempt: Extract<Attempt, { allowed: false }>): AppError {
  return new AppError("ACCOUNT_LOCKED", { minutes: attempt.minutes });
}
