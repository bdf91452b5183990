import { and, eq, isNull, lte, or, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { getPolicy } from "../policy/index.ts";
import { secretAttempts } from "./identity.table.ts";
import { hashSecret, verifySecret } from "./secrets.ts";

const KIND = "unknown_account_login";

// Hashed once per process: checking a password against it costs what checking a real one does.
let dummyHash: Promise<string> | undefined;

/**
 * Answers a login to an account that does not exist exactly as a wrong password on a real one:
 * the same hash work, the same count of remaining attempts, and the same lock after
 * `identity.login.maxFailures` tries. Without the count, "attempts left" that never falls (or a lock
 * that never comes) would tell a prober which accounts exist. Kept per account name, as a real
 * user's count is.
 */
export async function refuseUnknownAccount(db: Db, target: string, password: string): Promise<never> {
  const subject = `account:${target}`;
  const lockMinutes = await getPolicy(db, "identity.login.lockMinutes");
  const [current] = await db
    .select({ lockedUntil: secretAttempts.lockedUntil })
    .from(secretAttempts)
    .where(and(eq(secretAttempts.subject, subject), eq(secretAttempts.kind, KIND)));
  if (current?.lockedUntil && current.lockedUntil.getTime() > Date.now()) {
    const minutes = Math.ceil((current.lockedUntil.getTime() - Date.now()) / 60_000);
    throw new AppError("ACCOUNT_LOCKED", { minutes });
  }
  dummyHash ??= hashSecret(`unknown-account:${Math.random()}`);
  await verifySecret(password, await dummyHash);
  const maxFailures = await getPolicy(db, "identity.login.maxFailures");
  const lockUntil = new Date(Date.now() + lockMinutes * 60_000);
  // The same arithmetic as the users table's count (login-user.ts): at the limit, lock and restart.
  const reachesLimit = sql`${secretAttempts.failures} + 1 >= ${maxFailures}`;
  const [row] = await db
    .insert(secretAttempts)
    .values({
      subject,
      kind: KIND,
      failures: 1 >= maxFailures ? 0 : 1,
      lockedUntil: 1 >= maxFailures ? lockUntil : null,
    })
    .onConflictDoUpdate({
      target: [secretAttempts.subject, secretAttempts.kind],
      set: {
        failures: sql`case when ${reachesLimit} then 0 else ${secretAttempts.failures} + 1 end`,
        lockedUntil: sql`case when ${reachesLimit} then ${lockUntil.toISOString()}::timestamptz else null end`,
        updatedAt: new Date(),
      },
      where: or(isNull(secretAttempts.lockedUntil), lte(secretAttempts.lockedUntil, new Date())),
    })
    .returning({ failures: secretAttempts.failures, lockedUntil: secretAttempts.lockedUntil });
  if (!row || (row.lockedUntil && row.lockedUntil.getTime() > Date.now())) {
    throw new AppError("ACCOUNT_LOCKED", { minutes: lockMinutes });
  }
  throw new AppError("WRONG_CREDENTIALS", { remaining: maxFailures - row.failures }, "password");
}
