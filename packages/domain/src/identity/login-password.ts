import type { Db } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { checkSecretLimited, type Failure, type SecretTarget, userSubject } from "./secret-attempts.ts";
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
 * The refusal of a login whose password was wrong: the attempts left after this confirmed failure,
 * or the lock when this failure set it (no answer tells of tries left once locked).
 */
export function wrongLogin(failure: Failure): AppError {
  return failure.locksNow || failure.failures >= failure.maxFailures
    ? new AppError("ACCOUNT_LOCKED", { minutes: failure.lockMinutes })
    : new AppError("WRONG_CREDENTIALS", { remaining: failure.maxFailures - failure.failures }, "password");
}

/** The refusal of a login attempted while locked. */
export function lockedLogin(attempt: { minutes: number }): AppError {
  return new AppError("ACCOUNT_LOCKED", { minutes: attempt.minutes });
}
