import { randomBytes } from "node:crypto";
import { totpRequiredFor } from "@northstar/shared/operators";
import { and, eq, gt, isNull } from "drizzle-orm";
import { recordAudit } from "../audit/index.ts";
import type { Db, DbOrTx } from "../db/client.ts";
import { AppError } from "../errors.ts";
import {
  clearAttempts,
  hashSecret,
  newToken,
  type SecretTarget,
  sha256,
  takeAttempt,
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
    // A new password set by an administrator also lifts a lock from wrong guesses.
    await clearAttempts(db, { kind: "operator_password", subject: `operator:${params.username}` });
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

/**
 * Operator sign-in. Failures count per name (known or not, so the answers reveal no names) and per
 * address (across names); either limit refuses further tries for a while, even with the right
 * password. An operator with two-factor sign-in must then give a code from the authenticator: wrong
 * codes count under their own limit (so the password's right answer does not clear them), and a code
 * is accepted once. An operator whose role requires two factors but who has not enrolled gets a
 * session that can only enrol. Each failure, refusal and lockout is written to the audit log.
 */
export async function loginOperator(
  db: Db,
  params: { username: string; password: string; code?: string; address: string; userAgent?: string },
) {
  const byName: SecretTarget = { kind: "operator_password", subject: `operator:${params.username}` };
  const byAddress: SecretTarget = { kind: "operator_address", subject: `address:${params.address}` };
  const audit = (action: string, details: Record<string, unknown>) =>
    recordAudit(db, {
      actor: "system",
      action,
      subject: params.username,
      details: { address: params.address, ...details },
    });
  const fromAddress = await takeAttempt(db, byAddress);
  if (!fromAddress.allowed) {
    await audit("operator.login_throttled", { minutes: fromAddress.minutes });
    throw new AppError("OPERATOR_LOGIN_THROTTLED", { minutes: fromAddress.minutes });
  }
  const forName = await takeAttempt(db, byName);
  if (!forName.allowed) {
    await audit("operator.login_refused", { minutes: forName.minutes });
    throw new AppError("OPERATOR_LOCKED", { minutes: forName.minutes });
  }
  const [op] = await db.select().from(operators).where(eq(operators.username, params.username));
  // Verify against a dummy hash when the name is unknown, so timing does not reveal which names exist.
  const ok = await verifySecret(params.password, op?.passwordHash ?? (await hashSecret("x")));
  if (!op || !ok || op.status !== "active") {
    await audit("operator.login_failed", { failures: forName.failures });
    if (forName.locksNow) {
      await audit("operator.login_locked", { minutes: forName.lockMinutes });
    }
    if (fromAddress.locksNow) {
      await audit("operator.address_throttled", { minutes: fromAddress.lockMinutes });
    }
    throw new AppError("OPERATOR_LOGIN_WRONG", {}, "password");
  }
  await Promise.all([clearAttempts(db, byName), clearAttempts(db, byAddress)]);
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
