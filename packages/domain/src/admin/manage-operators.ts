import { randomBytes } from "node:crypto";
import { totpRequiredFor } from "@northstar/shared/operators";
import { and, eq, gt, isNull } from "drizzle-orm";
import { recordAudit } from "../audit/index.ts";
import type { Db, DbOrTx } from "../db/client.ts";
import { AppError } from "../errors.ts";
import {
  assertHashCapacity,
  clearAttemptsByPrefix,
  type Failure,
  hashSecret,
  newToken,
  type Reservation,
  reserveAttempt,
  type SecretTarget,
  settleAttempt,
  sha256,
  verifySecret,
} from "../identity/index.ts";
import { type OperatorRole, operatorSessions, operators, operatorTotp } from "./admin.table.ts";
import { isOperatorTotpEnrolled, verifyOperatorCode } from "./operator-totp.ts";

const OPERATOR_SESSION_HOURS = 12;

/** A random operator password: 18 characters of base64url, about 108 bits. */
export function generateOperatorPassword(): string {
  return randomBytes(14).toString("base64url");
}

/**
 * Creates an operator, or sets a new password for an existing one. Returns whether it was created.
 * There is never a fixed default password: the caller generates one and shows it once.
 */
export async function upsertOperator(
  db: DbOrTx,
  params: { username: string; password: string; role: OperatorRole; actor: string },
): Promise<{ created: boolean; id: number }> {
  const passwordHash = await hashSecret(params.password);
  const [existing] = await db.select().from(operators).where(eq(operators.username, params.username));
  if (existing) {
    await db.update(operators).set({ passwordHash, role: params.role }).where(eq(operators.id, existing.id));
    await db
      .update(operatorSessions)
      .set({ revokedAt: new Date() })
      .where(and(eq(operatorSessions.operatorId, existing.id), isNull(operatorSessions.revokedAt)));
    await recordAudit(db, { actor: params.actor, action: "operator.password", subject: params.username });
    // A new password set by an administrator also lifts the locks from wrong guesses, at every address.
    await clearAttemptsByPrefix(db, "operator_password", operatorSubject(params.username));
    await clearAttemptsByPrefix(db, "operator_global", operatorSubject(params.username));
    return { created: false, id: existing.id };
  }
  const [row] = await db
    .insert(operators)
    .values({ username: params.username, passwordHash, role: params.role })
    .returning({ id: operators.id });
  if (!row) {
    throw new AppError("REQUEST_ERROR");
  }
  await recordAudit(db, {
    actor: params.actor,
    action: "operator.create",
    subject: params.username,
    details: { role: params.role },
  });
  return { created: true, id: row.id };
}

const operatorSubject = (username: string) => `operator:${username}`;

// Hashed once per process: an unknown name costs the hash work a known one does.
let dummyHash: Promise<string> | undefined;

/**
 * Operator sign-in. Failures count per name and address (`security.operatorLogin.maxFailures`), so
 * wrong guesses from one address lock the name there only and never lock the operator out at another;
 * per address across names (`addressMaxFailures`, a throttle); and per name across all addresses
 * (`globalMaxFailures`, much higher: a bound on guessing spread over many addresses). Unknown names
 * count as known ones do, so the answers reveal no names. Any of these refuses further tries for a
 * while, even with the right password. An operator with two-factor sign-in must then give a code from
 * the authenticator: wrong codes count under their own limit (so the password's right answer does not
 * clear them), and a code is accepted once. An operator whose role requires two factors but who has
 * not enrolled gets a session that can only enrol. Each failure, refusal and lockout is audited.
 */
export async function loginOperator(
  db: Db,
  params: { username: string; password: string; code?: string; address: string; userAgent?: string },
) {
  const byAddress: SecretTarget = { kind: "operator_address", subject: `address:${params.address}` };
  const everywhere: SecretTarget = { kind: "operator_global", subject: operatorSubject(params.username) };
  const fromHere: SecretTarget = {
    kind: "operator_password",
    subject: `${operatorSubject(params.username)}|address:${params.address}`,
  };
  const audit = (action: string, details: Record<string, unknown>) =>
    recordAudit(db, {
      actor: "system",
      action,
      subject: params.username,
      details: { address: params.address, ...details },
    });
  // Refused as busy before any database work while the hash queue is full (a flood of sign-ins).
  assertHashCapacity("anonymous");
  const held: Reservation[] = [];
  const settleAll = (outcome: "right" | "void") =>
    Promise.all(held.map((r) => settleAttempt(db, r, outcome)));
  const reserve = async (target: SecretTarget, refuse: (minutes: number) => Promise<AppError>) => {
    let attempt: Awaited<ReturnType<typeof reserveAttempt>>;
    try {
      attempt = await reserveAttempt(db, target);
    } catch (error) {
      await settleAll("void");
      throw error;
    }
    if (!attempt.allowed) {
      await settleAll("void");
      throw await refuse(attempt.minutes);
    }
    held.push(attempt.reservation);
    return attempt.reservation;
  };
  const address = await reserve(byAddress, async (minutes) => {
    await audit("operator.login_throttled", { minutes });
    return new AppError("OPERATOR_LOGIN_THROTTLED", { minutes });
  });
  const locked = async (minutes: number, scope: "address" | "everywhere") => {
    await audit("operator.login_refused", { minutes, scope });
    return new AppError("OPERATOR_LOCKED", { minutes });
  };
  const global = await reserve(everywhere, (minutes) => locked(minutes, "everywhere"));
  const pair = await reserve(fromHere, (minutes) => locked(minutes, "address"));
  let ok = false;
  let op: typeof operators.$inferSelect | undefined;
  try {
    [op] = await db.select().from(operators).where(eq(operators.username, params.username));
    // Verify against a dummy hash when the name is unknown, so timing does not reveal which names exist.
    dummyHash ??= hashSecret(`unknown-operator:${Math.random()}`, "anonymous");
    const hash = op?.passwordHash ?? (await dummyHash);
    ok = (await verifySecret(params.password, hash, "anonymous")) && op?.status === "active";
  } catch (error) {
    await settleAll("void");
    throw error;
  }
  if (!op || !ok) {
    const [here, all, fromAddress] = await Promise.all([
      settleAttempt(db, pair, "wrong"),
      settleAttempt(db, global, "wrong"),
      settleAttempt(db, address, "wrong"),
    ]);
    await auditFailure(audit, here, all, fromAddress);
    throw new AppError("OPERATOR_LOGIN_WRONG", {}, "password");
  }
  await settleAll("right");
  const enrolled = await isOperatorTotpEnrolled(db, op.id);
  if (enrolled) {
    if (!params.code) {
      throw new AppError("OPERATOR_TOTP_REQUIRED", {}, "code");
    }
    try {
      await verifyOperatorCode(db, op.id, params.code);
    } catch (error) {
      await audit("operator.login_totp_failed", {
        error: error instanceof AppError ? error.code : "unknown",
      });
      throw error;
    }
  }
  const token = newToken();
  await db.insert(operatorSessions).values({
    operatorId: op.id,
    tokenHash: sha256(token),
    address: params.address,
    userAgent: params.userAgent?.slice(0, 300) ?? null,
    expiresAt: new Date(Date.now() + OPERATOR_SESSION_HOURS * 3600_000),
  });
  await recordAudit(db, {
    actor: `operator:${op.id}`,
    action: "operator.login",
    details: { address: params.address, twoFactor: enrolled },
  });
  return {
    token,
    operator: { id: op.id, username: op.username, role: op.role },
    enrolmentRequired: !enrolled && totpRequiredFor(op.role),
  };
}

async function auditFailure(
  audit: (action: string, details: Record<string, unknown>) => Promise<unknown>,
  here: Failure,
  all: Failure,
  fromAddress: Failure,
) {
  await audit("operator.login_failed", { failures: here.failures, failuresEverywhere: all.failures });
  if (here.locksNow) {
    await audit("operator.login_locked", { minutes: here.lockMinutes, scope: "address" });
  }
  if (all.locksNow) {
    await audit("operator.login_locked", { minutes: all.lockMinutes, scope: "everywhere" });
  }
  if (fromAddress.locksNow) {
    await audit("operator.address_throttled", { minutes: fromAddress.lockMinutes });
  }
}

export type AuthenticatedOperator = {
  id: number;
  username: string;
  role: OperatorRole;
  status: "active";
  /** The role requires two-factor sign-in and the operator has not enrolled yet: enrolment only. */
  enrolmentRequired: boolean;
  sessionId?: number;
};

/** The operator of a live session (not revoked, not expired, operator active), or null. */
export async function authenticateOperator(db: DbOrTx, token: string): Promise<AuthenticatedOperator | null> {
  const [row] = await db
    .select({
      id: operators.id,
      username: operators.username,
      role: operators.role,
      status: operators.status,
      sessionId: operatorSessions.id,
      totpEnabledAt: operatorTotp.enabledAt,
    })
    .from(operatorSessions)
    .innerJoin(operators, eq(operators.id, operatorSessions.operatorId))
    .leftJoin(operatorTotp, eq(operatorTotp.operatorId, operators.id))
    .where(
      and(
        eq(operatorSessions.tokenHash, sha256(token)),
        isNull(operatorSessions.revokedAt),
        gt(operatorSessions.expiresAt, new Date()),
      ),
    );
  if (row?.status !== "active") {
    return null;
  }
  return {
    id: row.id,
    username: row.username,
    role: row.role,
    status: "active",
    enrolmentRequired: !row.totpEnabledAt && totpRequiredFor(row.role),
    sessionId: row.sessionId,
  };
}
