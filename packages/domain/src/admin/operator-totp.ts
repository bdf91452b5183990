import { and, asc, eq, isNull, lt, or } from "drizzle-orm";
import { authenticator } from "otplib";
import { recordAudit } from "../audit/index.ts";
import type { Db, DbOrTx } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { checkSecretLimited, type TotpKeyring, totpKeyring } from "../identity/index.ts";
import { operatorSessions, operators, operatorTotp } from "./admin.table.ts";

/**
 * Two-factor sign-in for operators: TOTP (RFC 6238) with the same library and encrypted storage as
 * users' Google Authenticator, under the operator scope (a secret copied to a user row does not
 * open). A code is accepted once: only for a time step newer than the last accepted one.
 */
const STEP_MS = 30_000;
// The previous and next 30-second step are accepted too: phones' clocks drift.
const totp = () => authenticator.clone({ window: 1, epoch: Date.now() });

export async function isOperatorTotpEnrolled(db: DbOrTx, operatorId: number): Promise<boolean> {
  const [row] = await db
    .select({ enabledAt: operatorTotp.enabledAt })
    .from(operatorTotp)
    .where(eq(operatorTotp.operatorId, operatorId));
  return Boolean(row?.enabledAt);
}

/**
 * Starts enrolment: a new secret and the otpauth URI the page shows as a QR code. Enrolment
 * completes only when the operator proves a first code; until then the old pending secret is replaced.
 */
export async function startOperatorTotp(db: DbOrTx, operatorId: number, siteName: string) {
  const [op] = await db.select().from(operators).where(eq(operators.id, operatorId));
  if (!op) {
    throw new AppError("NOT_FOUND");
  }
  if (await isOperatorTotpEnrolled(db, operatorId)) {
    throw new AppError("OPERATOR_TOTP_ENROLLED");
  }
  const secret = authenticator.generateSecret(20);
  const stored = totpKeyring().encrypt(secret, operatorId, "operator_totp");
  await db
    .insert(operatorTotp)
    .values({ operatorId, secret: stored })
    .onConflictDoUpdate({
      target: operatorTotp.operatorId,
      set: { secret: stored, lastStep: null, createdAt: new Date() },
    });
  return { secret, uri: authenticator.keyuri(op.username, `${siteName} back office`, secret) };
}

/** Completes enrolment with a first code from the authenticator. */
export async function confirmOperatorTotp(db: Db, operatorId: number, code: string): Promise<void> {
  const [row] = await db.select().from(operatorTotp).where(eq(operatorTotp.operatorId, operatorId));
  if (!row) {
    throw new AppError("NOT_FOUND");
  }
  if (row.enabledAt) {
    throw new AppError("OPERATOR_TOTP_ENROLLED");
  }
  await useCode(db, row, code, true);
  await recordAudit(db, {
    actor: `operator:${operatorId}`,
    action: "operator.totp_enrolled",
    subject: String(operatorId),
    details: { before: { twoFactor: false }, after: { twoFactor: true } },
  });
}

/** Checks an enrolled operator's code (sign-in); the code is then spent. */
export async function verifyOperatorCode(db: Db, operatorId: number, code: string): Promise<void> {
  const [row] = await db.select().from(operatorTotp).where(eq(operatorTotp.operatorId, operatorId));
  if (!row?.enabledAt) {
    throw new AppError("OPERATOR_TOTP_WRONG", {}, "code");
  }
  await useCode(db, row, code, false);
}

/**
 * Removes an operator's second factor (a lost phone) and ends their sessions: their next sign-in
 * leads to enrolment again.
 */
export async function resetOperatorTotp(db: DbOrTx, operatorId: number): Promise<void> {
  await db.delete(operatorTotp).where(eq(operatorTotp.operatorId, operatorId));
  await db
    .update(operatorSessions)
    .set({ revokedAt: new Date() })
    .where(and(eq(operatorSessions.operatorId, operatorId), isNull(operatorSessions.revokedAt)));
}

/**
 * Moves operators' two-factor secrets to the keyring's current key (key rotation, next to users'
 * `reencryptTotpSecrets`), in one transaction with the rows locked: all of them or none. A secret
 * under a key the keyring lacks fails the whole run, changing nothing.
 */
export async function reencryptOperatorTotpSecrets(
  db: Db,
  keyring: TotpKeyring,
): Promise<{ total: number; changed: number }> {
  return db.transaction(async (tx) => {
    const rows = await tx.select().from(operatorTotp).orderBy(asc(operatorTotp.operatorId)).for("update");
    let changed = 0;
    for (const row of rows) {
      if (keyring.isCurrent(row.secret)) {
        continue;
      }
      const secret = keyring.decrypt(row.secret, row.operatorId, "operator_totp");
      await tx
        .update(operatorTotp)
        .set({ secret: keyring.encrypt(secret, row.operatorId, "operator_totp") })
        .where(eq(operatorTotp.operatorId, row.operatorId));
      changed += 1;
    }
    return { total: rows.length, changed };
  });
}

type TotpRow = typeof operatorTotp.$inferSelect;

/**
 * A code is checked under the operator's code attempt limit (the operator sign-in policy), and is
 * accepted only for a step newer than the last accepted one, claimed in one compare-and-set: of two
 * requests with the same code, one wins. A reused code (a right code already accepted, as a resent
 * request carries) is refused as used and gives its attempt back uncounted: resending never locks.
 */
async function useCode(db: Db, row: TotpRow, code: string, enrol: boolean): Promise<void> {
  await checkSecretLimited(
    db,
    { kind: "operator_password", subject: `operator-totp:${row.operatorId}` },
    { wrong: "OPERATOR_TOTP_WRONG", locked: "OPERATOR_LOCKED", field: "code" },
    async () => {
      const now = Date.now();
      const secret = totpKeyring().decrypt(row.secret, row.operatorId, "operator_totp");
      const delta = totp().checkDelta(code, secret);
      if (delta === null) {
        return false;
      }
      const step = Math.floor(now / STEP_MS) + delta;
      const claimed = await db
        .update(operatorTotp)
        .set({ lastStep: step, ...(enrol ? { enabledAt: new Date() } : {}) })
        .where(
          and(
            eq(operatorTotp.operatorId, row.operatorId),
            or(isNull(operatorTotp.lastStep), lt(operatorTotp.lastStep, step)),
            enrol ? isNull(operatorTotp.enabledAt) : undefined,
          ),
        )
        .returning({ operatorId: operatorTotp.operatorId });
      if (claimed.length === 0) {
        throw new AppError("OPERATOR_TOTP_USED", {}, "code");
      }
      return true;
    },
  );
}
