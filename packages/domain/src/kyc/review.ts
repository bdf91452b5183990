import type { RejectReason, VerificationLevel } from "@northstar/shared/kyc";
import type { KycApplicationStatus } from "@northstar/shared/state-machines";
import { kycApplicationMachine } from "@northstar/shared/state-machines";
import { and, desc, eq, ne, type SQL, sql } from "drizzle-orm";
import { recordAudit } from "../audit/index.ts";
import type { Db, DbOrTx } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { addMessage } from "../messages/index.ts";
import { getPolicy } from "../policy/index.ts";
import { transition } from "../state/index.ts";
import { maskDetails } from "./applications.ts";
import { kycApplications } from "./kyc.table.ts";

// The queue shows the newest 200; older rows are reached through the user lookup.
const QUEUE_LIMIT = 200;

/**
 * The back office's one queue: KYC, advanced, address and credit applications, newest first, with
 * their photos' upload ids (served to operators by /uploads/:id) and document numbers masked.
 */
export async function listKycForReview(
  db: DbOrTx,
  filter: { status?: KycApplicationStatus; level?: VerificationLevel; userId?: number } = {},
) {
  const conditions: SQL[] = [];
  if (filter.status) {
    conditions.push(eq(kycApplications.status, filter.status));
  }
  if (filter.level) {
    conditions.push(eq(kycApplications.level, filter.level));
  }
  if (filter.userId) {
    conditions.push(eq(kycApplications.userId, filter.userId));
  }
  const rows = await db
    .select()
    .from(kycApplications)
    .where(conditions.length ? and(...conditions) : undefined)
    .orderBy(desc(kycApplications.id))
    .limit(QUEUE_LIMIT);
  // The reviewer compares the document number with the photo: an application under review shows it
  // whole in the queue (compliance operators and administrators only); decided ones and every other
  // view mask it.
  return rows.map((row) =>
    row.status === "under_review" ? row : { ...row, details: maskDetails(row.details) },
  );
}

type Decision = { applicationId: number; operatorId: number; actor: string };

async function lockApplication(tx: DbOrTx, id: number) {
  const [row] = await tx.select().from(kycApplications).where(eq(kycApplications.id, id)).for("update");
  if (!row) {
    throw new AppError("NOT_FOUND");
  }
  return row;
}

/**
 * Every review decision goes through here (approve, reject), so a role check for compliance
 * operators can be added in one place. Each is a transition of the machine and audited with the
 * status before and after; a second decision finds the application no longer under review.
 */
async function decide(
  db: Db,
  params: Decision,
  to: "approved" | "rejected",
  set: Record<string, unknown>,
  details: Record<string, unknown>,
) {
  return db.transaction(async (tx) => {
    const row = await lockApplication(tx, params.applicationId);
    if (row.status !== "under_review") {
      throw new AppError("ALREADY_REVIEWED");
    }
    const changed = await transition(tx, {
      machine: kycApplicationMachine,
      table: kycApplications,
      id: row.id,
      from: "under_review",
      to,
      by: "operator",
      set: { ...set, reviewedBy: params.operatorId, reviewedAt: new Date(), updatedAt: new Date() },
    });
    if (!changed) {
      throw new AppError("ALREADY_REVIEWED");
    }
    await recordAudit(tx, {
      actor: params.actor,
      action: `kyc.${to === "approved" ? "approve" : "reject"}`,
      subject: `kyc_application:${row.id}`,
      details: {
        userId: row.userId,
        level: row.level,
        before: { status: row.status },
        after: { status: to, ...details },
      },
    });
    await addMessage(tx, {
      userId: row.userId,
      kind: to === "approved" ? "kyc.approved" : "kyc.rejected",
      params:
        to === "approved"
          ? { level: row.level }
          : { level: row.level, kycReason: String(details.reason ?? "other") },
      eventKey: `kyc_application:${row.id}:${to}`,
    });
    return { id: row.id, status: to };
  });
}

export async function approveKycApplication(db: Db, params: Decision & { assessmentPoints?: number }) {
  const points = await getPolicy(db, "kyc.credit.points");
  const [row] = await db
    .select({ level: kycApplications.level })
    .from(kycApplications)
    .where(eq(kycApplications.id, params.applicationId));
  // Only a credit proof carries an assessment; it defaults to the policy's full assessment.
  const assessment =
    row?.level === "credit"
      ? Math.min(points.assessmentMax, params.assessmentPoints ?? points.assessmentMax)
      : null;
  return decide(
    db,
    params,
    "approved",
    { assessmentPoints: assessment },
    assessment === null ? {} : { assessment },
  );
}

export async function rejectKycApplication(
  db: Db,
  params: Decision & { reason: RejectReason; note?: string },
) {
  return decide(
    db,
    params,
    "rejected",
    { rejectReason: params.reason, rejectNote: params.note || null },
    { reason: params.reason, note: params.note || null },
  );
}

/** Decision history: reviewed applications, latest decision first. */
export function listKycDecisions(db: DbOrTx, limit = QUEUE_LIMIT) {
  return db
    .select({
      id: kycApplications.id,
      userId: kycApplications.userId,
      level: kycApplications.level,
      status: kycApplications.status,
      rejectReason: kycApplications.rejectReason,
      rejectNote: kycApplications.rejectNote,
      assessmentPoints: kycApplications.assessmentPoints,
      reviewedBy: kycApplications.reviewedBy,
      reviewedAt: kycApplications.reviewedAt,
    })
    .from(kycApplications)
    .where(ne(kycApplications.status, "under_review"))
    .orderBy(desc(kycApplications.reviewedAt), desc(kycApplications.id))
    .limit(limit);
}

/**
 * Whether an upload is one of a verification application's photos (identity documents and the
 * like): such files are for their owner and for compliance operators and administrators only.
 */
export async function isVerificationPhoto(db: DbOrTx, uploadId: string): Promise<boolean> {
  const rows = await db
    .select({ id: kycApplications.id })
    .from(kycApplications)
    .where(sql`${kycApplications.photos} @> ${JSON.stringify([{ uploadId }])}::jsonb`)
    .limit(1);
  return rows.length > 0;
}
