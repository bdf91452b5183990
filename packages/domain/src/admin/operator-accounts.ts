import { operatorMachine } from "@northstar/shared/state-machines";
import { and, asc, desc, eq, gt, isNull } from "drizzle-orm";
import { auditLog, recordAudit } from "../audit/index.ts";
import type { DbOrTx } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { hashSecret } from "../identity/index.ts";
import { transition } from "../state/index.ts";
import { type OperatorRole, operatorSessions, operators, operatorTotp } from "./admin.table.ts";
import { resetOperatorTotp } from "./operator-totp.ts";

/**
 * Managing operators: add, change role, disable or enable, end sessions, reset two-factor sign-in.
 * Each change is audited with the state before and after. An operator cannot change their own role
 * or status (so the last administrator cannot lock everyone out by mistake).
 */

async function findOperator(db: DbOrTx, username: string) {
  const [op] = await db.select().from(operators).where(eq(operators.username, username));
  if (!op) {
    throw new AppError("NOT_FOUND");
  }
  return op;
}

function notSelf(actorId: number | undefined, targetId: number) {
  if (actorId !== undefined && actorId === targetId) {
    throw new AppError("OPERATOR_SELF_CHANGE");
  }
}

const revokeAll = (db: DbOrTx, operatorId: number) =>
  db
    .update(operatorSessions)
    .set({ revokedAt: new Date() })
    .where(and(eq(operatorSessions.operatorId, operatorId), isNull(operatorSessions.revokedAt)))
    .returning({ id: operatorSessions.id });

export async function listOperators(db: DbOrTx) {
  return db
    .select({
      id: operators.id,
      username: operators.username,
      role: operators.role,
      status: operators.status,
      createdAt: operators.createdAt,
      twoFactorAt: operatorTotp.enabledAt,
    })
    .from(operators)
    .leftJoin(operatorTotp, eq(operatorTotp.operatorId, operators.id))
    .orderBy(asc(operators.id));
}

/** Adds a new operator (refused when the name exists). The caller shows the password once. */
export async function addOperator(
  db: DbOrTx,
  params: { username: string; password: string; role: OperatorRole; actor: string },
): Promise<{ id: number }> {
  const passwordHash = await hashSecret(params.password);
  const [row] = await db
    .insert(operators)
    .values({ username: params.username, passwordHash, role: params.role })
    .onConflictDoNothing({ target: operators.username })
    .returning({ id: operators.id });
  if (!row) {
    throw new AppError("OPERATOR_EXISTS", {}, "username");
  }
  await recordAudit(db, {
    actor: params.actor,
    action: "operator.create",
    subject: params.username,
    details: { before: null, after: { role: params.role, status: "active" } },
  });
  return row;
}

export async function setOperatorRole(
  db: DbOrTx,
  params: { username: string; role: OperatorRole; actor: string; actorId?: number },
) {
  const op = await findOperator(db, params.username);
  notSelf(params.actorId, op.id);
  await db.update(operators).set({ role: params.role }).where(eq(operators.id, op.id));
  await recordAudit(db, {
    actor: params.actor,
    action: "operator.role",
    subject: op.username,
    details: { before: { role: op.role }, after: { role: params.role } },
  });
  return { id: op.id, username: op.username, role: params.role };
}

/** Disabling ends every session of the operator at once; enabling lets them sign in again. */
export async function setOperatorStatus(
  db: DbOrTx,
  params: { username: string; status: "active" | "disabled"; actor: string; actorId?: number },
) {
  const op = await findOperator(db, params.username);
  notSelf(params.actorId, op.id);
  return db.transaction(async (tx) => {
    // Through the operator machine (active ↔ disabled), compare-and-set on the status read above:
    // a change to the status it already has, or a lost race, changes and audits nothing.
    const changed =
      op.status !== params.status &&
      (await transition(tx, {
        machine: operatorMachine,
        table: operators,
        id: op.id,
        from: op.status,
        to: params.status,
        by: "operator",
      }));
    if (!changed) {
      throw new AppError("STATUS_UNCHANGED");
    }
    const ended = params.status === "disabled" ? (await revokeAll(tx, op.id)).length : 0;
    await recordAudit(tx, {
      actor: params.actor,
      action: params.status === "disabled" ? "operator.disable" : "operator.enable",
      subject: op.username,
      details: { before: { status: op.status }, after: { status: params.status }, sessionsEnded: ended },
    });
    return { id: op.id, username: op.username, status: params.status, sessionsEnded: ended };
  });
}

/** An administrator ends all sessions of another operator. */
export async function revokeOperatorSessions(
  db: DbOrTx,
  params: { username: string; actor: string },
): Promise<{ sessionsEnded: number }> {
  const op = await findOperator(db, params.username);
  const ended = (await revokeAll(db, op.id)).length;
  await recordAudit(db, {
    actor: params.actor,
    action: "operator.sessions_revoked",
    subject: op.username,
    details: { before: { sessions: ended }, after: { sessions: 0 } },
  });
  return { sessionsEnded: ended };
}

/** An administrator removes another operator's second factor; they enrol again at next sign-in. */
export async function resetOperatorTwoFactor(
  db: DbOrTx,
  params: { username: string; actor: string; actorId?: number },
) {
  const op = await findOperator(db, params.username);
  notSelf(params.actorId, op.id);
  const [totp] = await db.select().from(operatorTotp).where(eq(operatorTotp.operatorId, op.id));
  await resetOperatorTotp(db, op.id);
  await recordAudit(db, {
    actor: params.actor,
    action: "operator.totp_reset",
    subject: op.username,
    details: { before: { twoFactor: Boolean(totp?.enabledAt) }, after: { twoFactor: false } },
  });
  return { ok: true };
}

/** The operator's live sessions, newest first; `current` marks the one asking. */
export async function listOwnSessions(db: DbOrTx, operatorId: number, currentSessionId?: number) {
  const rows = await db
    .select({
      id: operatorSessions.id,
      address: operatorSessions.address,
      userAgent: operatorSessions.userAgent,
      createdAt: operatorSessions.createdAt,
      expiresAt: operatorSessions.expiresAt,
    })
    .from(operatorSessions)
    .where(
      and(
        eq(operatorSessions.operatorId, operatorId),
        isNull(operatorSessions.revokedAt),
        gt(operatorSessions.expiresAt, new Date()),
      ),
    )
    .orderBy(desc(operatorSessions.createdAt), desc(operatorSessions.id));
  return rows.map((r) => ({ ...r, current: r.id === currentSessionId }));
}

/** Ends one of the operator's own sessions; another operator's session id reaches nothing. */
export async function revokeOwnSession(
  db: DbOrTx,
  params: { operatorId: number; sessionId: number; actor: string },
): Promise<void> {
  const ended = await db
    .update(operatorSessions)
    .set({ revokedAt: new Date() })
    .where(
      and(
        eq(operatorSessions.id, params.sessionId),
        eq(operatorSessions.operatorId, params.operatorId),
        isNull(operatorSessions.revokedAt),
      ),
    )
    .returning({ id: operatorSessions.id });
  if (ended.length === 0) {
    throw new AppError("NOT_FOUND");
  }
  await recordAudit(db, {
    actor: params.actor,
    action: "operator.session_revoked",
    subject: String(params.sessionId),
    details: { before: { live: true }, after: { live: false } },
  });
}

/** The operator's own recent actions, newest first. */
export function listOwnActions(db: DbOrTx, operatorId: number, limit = 50) {
  return db
    .select()
    .from(auditLog)
    .where(eq(auditLog.actor, `operator:${operatorId}`))
    .orderBy(desc(auditLog.id))
    .limit(limit);
}
