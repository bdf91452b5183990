import { randomBytes } from "node:crypto";
import type { ErrorCode } from "@northstar/shared/errors";
import type { PolicyKey } from "@northstar/shared/policy";
import { and, eq, sql } from "drizzle-orm";
import type { Db, DbOrTx } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { getPolicies } from "../policy/index.ts";
import { secretAttempts } from "./identity.table.ts";

/**
 * Attempt limits on secrets. Every check first reserves one of the subject's attempt slots, in one
 * statement: an attempt in flight holds a slot until its answer is known, and confirmed wrong answers
 * plus attempts in flight never exceed the limit, so however many guesses arrive at once at most the
 * limit are ever compared. A right answer (or an attempt that ends without an answer) gives its slot
 * back uncounted; a wrong one turns it into a failure, and the failure that reaches the limit locks.
 * An attempt that finds every slot taken waits for one (`security.secretAttempts.waitSeconds`) rather
 * than being refused as locked: parallel right answers all pass, one after another. The counts live
 * in PostgreSQL, so they survive restarts and every API process shares them. Callers pass the pool,
 * never a transaction: a rolled-back count would be no limit.
 */
export type SecretKind =
  | "login_password"
  | "unknown_account_login"
  | "trade_password"
  | "totp"
  | "security_answer"
  | "operator_password"
  | "operator_address"
  | "operator_global"
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
  operator_global: {
    maxFailures: "security.operatorLogin.globalMaxFailures",
    lockMinutes: "security.operatorLogin.globalLockMinutes",
  },
  wallet_signin: { maxFailures: "identity.wallet.maxFailures", lockMinutes: "identity.wallet.lockMinutes" },
};

export type SecretTarget = { kind: SecretKind; subject: string };

/** A reserved attempt: one slot of the target's limit, held until `settleAttempt`. */
export type Reservation = { target: SecretTarget; slot: string; maxFailures: number; lockMinutes: number };

export type Attempt = { allowed: true; reservation: Reservation } | { allowed: false; minutes: number };

/** What a settled wrong answer left: the failures counted, and whether this one set the lock. */
export type Failure = { failures: number; maxFailures: number; locksNow: boolean; lockMinutes: number };

/**
 * A slot whose attempt never settles (its process died) lapses after this long and frees itself. Far
 * longer than a check takes, hash queue included; not a limit anyone tunes.
 */
const SLOT_SECONDS = 120;

/**
 * Attempts of this process waiting for a slot, first come first served: each slot this process gives
 * back wakes the longest waiter that is asleep at once; the others poll (slots freed by other processes).
 */
type Waiter = { wake: (() => void) | null };
const waiters = new Map<string, Waiter[]>();
const waitKey = (target: SecretTarget) => `${target.kind}\u0000${target.subject}`;

function wakeOne(target: SecretTarget): void {
  waiters
    .get(waitKey(target))
    ?.find((w) => w.wake)
    ?.wake?.();
}

function joinLine(target: SecretTarget): { me: Waiter; leave: () => void } {
  const key = waitKey(target);
  const line = waiters.get(key) ?? [];
  waiters.set(key, line);
  const me: Waiter = { wake: null };
  line.push(me);
  return {
    me,
    leave: () => {
      line.splice(line.indexOf(me), 1);
      if (line.length === 0 && waiters.get(key) === line) {
        waiters.delete(key);
      }
    },
  };
}

/** Sleeps until woken by a slot this process gave back, or for `ms`. */
function sleep(me: Waiter, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const fire = () => {
      clearTimeout(timer);
      me.wake = null;
      resolve();
    };
    const timer = setTimeout(fire, ms);
    me.wake = fire;
  });
}

// Live slots: entries of `pending` that have not lapsed.
const liveSlots = sql`(select coalesce(jsonb_object_agg(p.key, p.value), '{}'::jsonb)
  from jsonb_each(a.pending) p where (p.value)::numeric > extract(epoch from clock_timestamp()))`;
const liveCount = sql`(select count(*) from jsonb_each(a.pending) p
  where (p.value)::numeric > extract(epoch from clock_timestamp()))::int`;
// Failures that still count: an ended lock starts the count again.
const counted = sql`case when a.locked_until <= clock_timestamp() then 0 else a.failures end`;

/** Why a try found no slot: locked (the minutes left), or every slot taken. */
type NoSlot = { locked: number } | "full";

/** One try at a slot: the reservation, or why there is none. */
async function tryReserve(
  db: Db,
  target: SecretTarget,
  max: number,
  slot: string,
): Promise<"reserved" | "free" | NoSlot> {
  const lapse = sql`to_jsonb(extract(epoch from clock_timestamp()) + ${SLOT_SECONDS}::int)`;
  const taken = await db.execute<{ failures: number }>(sql`
    insert into secret_attempts as a (subject, kind, failures, pending, locked_until, updated_at)
    values (${target.subject}, ${target.kind}, 0, jsonb_build_object(${slot}::text, ${lapse}), null, clock_timestamp())
    on conflict (subject, kind) do update set
      failures = ${counted},
      locked_until = null,
      pending = ${liveSlots} || jsonb_build_object(${slot}::text, ${lapse}),
      updated_at = clock_timestamp()
    where (a.locked_until is null or a.locked_until <= clock_timestamp())
      and ${counted} + ${liveCount} < ${max}::int
    returning a.failures`);
  return taken.rows[0] ? "reserved" : peek(db, target, max);
}

/**
 * Whether a slot looks free, read without waiting for the row's lock (a waiter polls this, so that
 * waiters never queue on the row ahead of the attempts that give slots back): free, locked, or full.
 */
async function peek(db: Db, target: SecretTarget, max: number): Promise<"free" | NoSlot> {
  const row = await db.execute<{ minutes: number | null; taken: number }>(sql`
    select case when a.locked_until > clock_timestamp()
        then greatest(1, ceil(extract(epoch from a.locked_until - clock_timestamp()) / 60))::int end as minutes,
      ${counted} + ${liveCount} as taken
    from secret_attempts a where a.subject = ${target.subject} and a.kind = ${target.kind}`);
  const found = row.rows[0];
  if (!found) {
    return "free";
  }
  if (found.minutes != null) {
    return { locked: Number(found.minutes) };
  }
  return Number(found.taken) < max ? "free" : "full";
}

/**
 * Reserves one attempt slot of `target`: refused while locked; while every slot is held by attempts
 * in flight, waits for one to be given back (woken at once when this process frees it, polling for
 * other processes), and after `security.secretAttempts.waitSeconds` refuses as busy, uncounted.
 */
export async function reserveAttempt(db: Db, target: SecretTarget): Promise<Attempt> {
  const keys = LIMITS[target.kind];
  const [maxValue, lockValue, waitSeconds] = await getPolicies(db, [
    keys.maxFailures,
    keys.lockMinutes,
    "security.secretAttempts.waitSeconds",
  ] as const);
  const max = Number(maxValue);
  const lock = Number(lockValue);
  const slot = randomBytes(9).toString("base64url");
  const deadline = Date.now() + waitSeconds * 1000;
  let result = await tryReserve(db, target, max, slot);
  let line: ReturnType<typeof joinLine> | undefined;
  try {
    for (let round = 0; result !== "reserved"; round++) {
      if (result === "free") {
        result = await tryReserve(db, target, max, slot);
        continue;
      }
      if (result !== "full") {
        return { allowed: false, minutes: result.locked };
      }
      const left = deadline - Date.now();
      if (left <= 0) {
        throw new AppError("SERVER_BUSY");
      }
      line ??= joinLine(target);
      // Polling backs off from 20 ms to 250 ms, with jitter so waiters do not retry in step.
      await sleep(
        line.me,
        Math.min(left, Math.min(250, 20 * 2 ** Math.min(round, 4)) * (0.5 + Math.random())),
      );
      result = await peek(db, target, max);
    }
  } finally {
    line?.leave();
  }
  return { allowed: true, reservation: { target, slot, maxFailures: max, lockMinutes: lock } };
}

/**
 * Settles a reserved attempt. `right` gives the slot back and starts the count again; `wrong` turns
 * it into a failure and locks when the failures reach the limit; `void` (the attempt ended without an
 * answer: an error, a busy refusal, a code already used) only gives the slot back.
 */
export function settleAttempt(
  db: Db,
  reservation: Reservation,
  outcome: "right" | "void",
): Promise<undefined>;
export function settleAttempt(db: Db, reservation: Reservation, outcome: "wrong"): Promise<Failure>;
export function settleAttempt(
  db: Db,
  reservation: Reservation,
  outcome: "right" | "wrong" | "void",
): Promise<Failure | undefined>;
export async function settleAttempt(
  db: Db,
  reservation: Reservation,
  outcome: "right" | "wrong" | "void",
): Promise<Failure | undefined> {
  const { target, slot, maxFailures, lockMinutes } = reservation;
  const locked = sql`a.locked_until > clock_timestamp()`;
  const failures =
    outcome === "wrong"
      ? sql`${counted} + 1`
      : outcome === "right"
        ? sql`case when ${locked} then a.failures else 0 end`
        : sql`a.failures`;
  const until = sql`clock_timestamp() + make_interval(mins => ${lockMinutes}::int)`;
  const lockedUntil =
    outcome === "wrong"
      ? sql`case when ${locked} then a.locked_until when ${counted} + 1 >= ${maxFailures}::int then ${until} end`
      : sql`case when ${locked} then a.locked_until end`;
  try {
    const rows = await db.execute<{ failures: number; locked: boolean }>(sql`
      update secret_attempts as a set
        failures = ${failures},
        locked_until = ${lockedUntil},
        pending = a.pending - ${slot}::text,
        updated_at = clock_timestamp()
      where a.subject = ${target.subject} and a.kind = ${target.kind}
      returning a.failures, a.locked_until is not null as locked`);
    if (outcome !== "wrong") {
      return undefined;
    }
    const row = rows.rows[0];
    const count = Number(row?.failures ?? maxFailures);
    // Slots keep failures plus attempts in flight within the limit, so exactly one failure reaches it.
    return {
      failures: count,
      maxFailures,
      locksNow: Boolean(row?.locked) && count === maxFailures,
      lockMinutes,
    };
  } finally {
    wakeOne(target);
  }
}

/** The failures counted and the lock lifted (a new password set by reset or by an administrator). */
export async function clearAttempts(db: DbOrTx, target: SecretTarget): Promise<void> {
  await db
    .update(secretAttempts)
    .set({ failures: 0, lockedUntil: null, updatedAt: new Date() })
    .where(and(eq(secretAttempts.subject, target.subject), eq(secretAttempts.kind, target.kind)));
}

/** `clearAttempts` for every subject of `kind` starting with `prefix` (one name at every address). */
export async function clearAttemptsByPrefix(db: DbOrTx, kind: SecretKind, prefix: string): Promise<void> {
  await db
    .update(secretAttempts)
    .set({ failures: 0, lockedUntil: null, updatedAt: new Date() })
    .where(and(eq(secretAttempts.kind, kind), sql`starts_with(${secretAttempts.subject}, ${prefix})`));
}

/**
 * Checks a secret under its attempt limit: refuses with `locked` (naming the minutes left) while
 * locked, with `wrong` when `verify` answers false (counted); a right answer gives the slot back
 * uncounted and starts the count again. An error thrown by `verify` (a code already used, a busy
 * hash queue) gives the slot back uncounted and reaches the caller.
 */
export async function checkSecretLimited(
  db: Db,
  target: SecretTarget,
  refusals: { wrong: ErrorCode; locked: ErrorCode; field: string },
  verify: () => Promise<boolean>,
): Promise<void> {
  const attempt = await reserveAttempt(db, target);
  if (!attempt.allowed) {
    throw new AppError(refusals.locked, { minutes: attempt.minutes }, refusals.field);
  }
  if ((await settleWith(db, attempt.reservation, verify)) !== true) {
    throw new AppError(refusals.wrong, {}, refusals.field);
  }
}

/**
 * Runs `verify` under a reservation and settles it: true settles right, false wrong (the failure is
 * returned), and a throw settles void and is rethrown.
 */
export async function settleWith(
  db: Db,
  reservation: Reservation,
  verify: () => Promise<boolean>,
): Promise<true | Failure> {
  let ok: boolean;
  try {
    ok = await verify();
  } catch (error) {
    await settleAttempt(db, reservation, "void");
    throw error;
  }
  if (ok) {
    await settleAttempt(db, reservation, "right");
    return true;
  }
  return settleAttempt(db, reservation, "wrong");
}

export const userSubject = (userId: number) => `user:${userId}`;
