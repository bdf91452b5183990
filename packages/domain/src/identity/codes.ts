import type { TCodePurpose } from "@northstar/shared/contracts/identity";
import type { Language } from "@northstar/shared/languages";
import { and, desc, eq, gt, isNull, sql } from "drizzle-orm";
import type { Db, DbOrTx } from "../db/client.ts";
import { AppError } from "../errors.ts";
import type { Notifier } from "../notifications/index.ts";
import { getPolicy } from "../policy/index.ts";
import { verificationCodes } from "./identity.table.ts";
import { newCode, sha256 } from "./secrets.ts";

// Codes are hashed with their row's target and purpose, so a leaked table row is useless elsewhere.
const hashCode = (target: string, purpose: string, code: string) => sha256(`${purpose}:${target}:${code}`);

/**
 * Issues a single-use code to an email or phone and queues its delivery. Refuses when the previous
 * code to the same target was sent less than `identity.code.resendSeconds` ago, or when the target
 * has had `identity.code.maxPerDay` codes in 24 hours.
 */
export async function issueCode(
  db: DbOrTx,
  notifier: Notifier,
  params: {
    channel: "email" | "phone";
    target: string;
    purpose: TCodePurpose;
    lang: Language;
    ip?: string;
    /** False records the code (so limits count it) without sending it: a reset for no account. */
    deliver?: boolean;
  },
): Promise<{ resendSeconds: number }> {
  const [ttl, resend, maxPerDay] = await Promise.all([
    getPolicy(db, "identity.code.ttlSeconds"),
    getPolicy(db, "identity.code.resendSeconds"),
    getPolicy(db, "identity.code.maxPerDay"),
  ]);
  return db.transaction(async (tx) => {
    // Serialise code issuing per target, so two fast requests cannot both pass the resend check.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${params.target}, 0))`);
    const since = new Date(Date.now() - 24 * 3600_000);
    const recent = await tx
      .select({ createdAt: verificationCodes.createdAt })
      .from(verificationCodes)
      .where(and(eq(verificationCodes.target, params.target), gt(verificationCodes.createdAt, since)))
      .orderBy(desc(verificationCodes.createdAt), desc(verificationCodes.id));
    const last = recent[0];
    if (last) {
      const wait = Math.ceil((last.createdAt.getTime() + resend * 1000 - Date.now()) / 1000);
      if (wait > 0) {
        throw new AppError("CODE_TOO_FREQUENT", { seconds: wait });
      }
    }
    if (recent.length >= maxPerDay) {
      throw new AppError("CODE_DAILY_LIMIT");
    }
    const code = newCode();
    await tx.insert(verificationCodes).values({
      channel: params.channel,
      target: params.target,
      purpose: params.purpose,
      codeHash: hashCode(params.target, params.purpose, code),
      expiresAt: new Date(Date.now() + ttl * 1000),
      ip: params.ip ?? null,
    });
    if (params.deliver === false) {
      return { resendSeconds: resend };
    }
    await notifier.sendCode({
      channel: params.channel,
      to: params.target,
      code,
      purpose: params.purpose,
      lang: params.lang,
      ttlMinutes: Math.ceil(ttl / 60),
    });
    return { resendSeconds: resend };
  });
}

/**
 * Checks and consumes the newest live code for the target and purpose, in a transaction of its own so
 * that a wrong attempt is counted even when the caller then fails. After `identity.code.maxAttempts`
 * wrong tries the code is dead. Callers validate everything else first, then consume, then write.
 */
export async function consumeCode(
  db: Db,
  params: { target: string; purpose: TCodePurpose; code: string },
): Promise<void> {
  const maxAttempts = await getPolicy(db, "identity.code.maxAttempts");
  const outcome = await db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(verificationCodes)
      .where(
        and(
          eq(verificationCodes.target, params.target),
          eq(verificationCodes.purpose, params.purpose),
          isNull(verificationCodes.consumedAt),
          gt(verificationCodes.expiresAt, new Date()),
        ),
      )
      .orderBy(desc(verificationCodes.createdAt), desc(verificationCodes.id))
      .limit(1)
      .for("update");
    if (!row) {
      return "CODE_WRONG" as const;
    }
    if (row.attempts >= maxAttempts) {
      return "CODE_TOO_MANY_ATTEMPTS" as const;
    }
    if (row.codeHash !== hashCode(params.target, params.purpose, params.code)) {
      await tx
        .update(verificationCodes)
        .set({ attempts: row.attempts + 1 })
        .where(eq(verificationCodes.id, row.id));
      return row.attempts + 1 >= maxAttempts ? ("CODE_TOO_MANY_ATTEMPTS" as const) : ("CODE_WRONG" as const);
    }
    await tx
      .update(verificationCodes)
      .set({ consumedAt: new Date() })
      .where(eq(verificationCodes.id, row.id));
    return "ok" as const;
  });
  if (outcome !== "ok") {
    throw new AppError(outcome, {}, "code");
  }
}
