import type { ErrorCode } from "@northstar/shared/errors";
import type { PolicyKey } from "@northstar/shared/policy";
import { and, eq, sql } from "drizzle-orm";
import type { Db, DbOrTx } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { getPolicy } from "../policy/index.ts";
import { secretAttempts } from "./identity.table.ts";

/**
 * Attempt limits on secrets. Each check first takes one attempt from the subject's allowance in a
 * single statement (counted and, at the limit, locked together), and only then compares the secret:
 * however many guesses arrive at once, at most the limit are ever compared. A right answer gives the
 * allowance back. The count lives in PostgreSQL, so it survives restarts and every API process
 * shares it. Callers pass the pool, never a transaction: a rolled-back count would be no limit.
 */
export type SecretKind =
  | "login_password"
  | "unknown_account_login"
  | "trade_password"
  | "totp"
  | "security_answer"
  | "operator_password"
  | "operator_address"
  | "wallet_signin";

const LOGIN_LIMITS = {
  maxFailures: "identity.login.maxFailures",
  lockMinutes: "identity.login.lockMinutes",
} as const;

const LIMITS: Record<SecretKind, { maxFailures: PolicyKey; lockMinutes: PolicyKey }> = {
  login_password: LOGIN_LIMITS,
  // An unknown account name counts as a real account does, so the answers cannot tell them apart.
  unknown_account_login: LOGIN_LIMITS,
  trade_password: {
    maxFailures: "security.tradePassword.maxFailures",
    lockMinutes: "security.tradePassword.lockMinutes",
  },
  totp: { maxFailures: "security.totp.maxFailures", lockMinutes: "security.totp.lockMinutes" },
  security_answer: {
    maxFailures: "security.securityAnswer.maxFailures",
    lockMinutes: "security.securityAnswer.lockMinutes",
  },
  operator_password: {
    maxFailures: "security.operatorLogin.maxFailures",
    lockMinutes: "security.operatorLogin.lockMinutes",
  },
  operator_address: {
    maxFailures: "security.operatorLogin.addressMaxFailures",
    lockMinutes: "security.operatorLogin.addressLockMinutes",
  },
  wallet_signin: { maxFailures: "identity.wallet.maxFailures", lockMinutes: "identity.wallet.lockMinutes" },
};

export type SecretTarget = { kind: SecretKind; subject: string };

export type Attempt =
  | { allowed: true; failures: number; maxFailures: number; locksNow: boolean; lockMinutes: number }
  | { allowed: false; minutes: number };

async function limits(db: Db, kind: SecretKind): Promise<{ max: number; lock: number }> {
  const keys = LIMITS[kind];
  const [max, lock] = await Promise.all([getPolicy(db, keys.maxFailures), getPolicy(db, keys.lockMinutes)]);
  return { max: Number(max), lock: Number(lock) };
}

/**
 * Takes one attempt, counted as a failure until `clearAttempts` says otherwise. The attempt that
 * reaches the limit sets the lock at once, so no parallel guess gets past it. An ended lock starts
 * the count again.
 */
export async function takeAttempt(db: Db, target: SecretTarget): Promise<Attempt> {
  const { max, lock } = await limits(db, target.kind);
  const count = sql`case when a.locked_until is null then a.failures + 1 else 1 end`;
  const until = sql`clock_timestamp() + make_interval(mins => ${lock}::int)`;
  const taken = await db.execute<{ failures: number }>(sql`
    insert into secret_attempts as a (subject, kind, failures, locked_until, updated_at)
    values (${target.subject}, ${target.kind}, 1, case when 1 >= ${max}::int then ${until} end, clock_timestamp())
    on conflict (subject, kind) do update set
      failures = ${count},
      locked_until = case when ${count} >= ${max}::int then ${until} end,
      updated_at = clock_timestamp()
    where a.locked_until is null or a.locked_until <= clock_timestamp()
    returning a.failures`);
  const row = taken.rows[0];
  if (row) {
    return {
      allowed: true,
      failures: row.failures,
      maxFailures: max,
      locksNow: row.failures >= max,
      lockMinutes: lock,
    };
  }
  const left = await db.execute<{ minutes: number }>(sql`
    select greatest(1, ceil(extract(epoch from locked_until - clock_timestamp()) / 60))::int as minutes
    from secret_attempts where subject = ${target.subject} and kind = ${target.kind}`);
  return { allowed: false, minutes: left.rows[0]?.minutes ?? lock };
}

/** A right answer: the count starts again. */
export async function clearAttempts(db: DbOrTx, target: SecretTarget): Promise<void> {
  await db
    .update(secretAttempts)
    .set({ failures: 0, lockedUntil: null, updatedAt: new Date() })
    .where(and(eq(secretAttempts.subject, target.subject), eq(secretAttempts.kind, target.kind)));
}

/**
 * Checks a secret under its attempt limit: refuses with `locked` (naming the minutes left) while
 * locked, with `wrong` when `verify` answers false; a right answer clears the count. An error thrown
 * by `verify` leaves the attempt counted.
 */
export async function checkSecretLimited(
  db: Db,
  target: SecretTarget,
  refusals: { wrong: ErrorCode; locked: ErrorCode; field: string },
  verify: () => Promise<boolean>,
): Promise<void> {
  const attempt = await takeAttempt(db, target);
  if (!attempt.allowed) {
    throw new AppError(refusals.locked, { minutes: attempt.minutes }, refusals.field);
  }
  if (!(await verify())) {
    throw new AppError(refusals.wrong, {}, refusals.field);
  }
  await clearAttempts(db, target);
}

export const userSubject = (userId: number) => `user:${userId}`;
