import type { TAdvancedKycRequest, TPrimaryKycRequest } from "@northstar/shared/contracts/kyc";
import { maskDocumentNumber, type VerificationLevel } from "@northstar/shared/kyc";
import { and, eq, ne, sql } from "drizzle-orm";
import type { Db, DbOrTx } from "../db/client.ts";
import { AppError } from "../errors.ts";
import type { User } from "../identity/index.ts";
import { uploadOwner } from "../uploads/index.ts";
import { kycApplications } from "./kyc.table.ts";
import { latestApplications, levelStatus } from "./status.ts";

type Photo = { role: string; uploadId: string };

/** Every photo must be the applicant's own upload: another user's id reaches nothing. */
async function assertOwnPhotos(db: DbOrTx, userId: number, photos: Photo[]): Promise<void> {
  for (const photo of photos) {
    if ((await uploadOwner(db, photo.uploadId)) !== userId) {
      throw new AppError("NOT_FOUND", {}, photo.role);
    }
  }
}

/**
 * Records an application under review. Refused while one of the same level is under review or after
 * one was approved (approved data is read-only forever); a per-user lock and the partial unique
 * index make that hold for concurrent requests too.
 */
async function apply(
  db: Db,
  user: User,
  level: VerificationLevel,
  details: Record<string, unknown>,
  photos: Photo[],
  requires?: "primary",
) {
  if (user.kind !== "real") {
    throw new AppError("REAL_ACCOUNT_REQUIRED");
  }
  if (requires && (await levelStatus(db, user.id, requires)) !== "approved") {
    throw new AppError("KYC_REQUIRED");
  }
  await assertOwnPhotos(db, user.id, photos);
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`kyc:${user.id}:${level}`}, 0))`);
    const [open] = await tx
      .select({ status: kycApplications.status })
      .from(kycApplications)
      .where(
        and(
          eq(kycApplications.userId, user.id),
          eq(kycApplications.level, level),
          ne(kycApplications.status, "rejected"),
        ),
      );
    if (open) {
      throw new AppError(open.status === "approved" ? "KYC_ALREADY_VERIFIED" : "KYC_UNDER_REVIEW");
    }
    const [row] = await tx
      .insert(kycApplications)
      .values({ userId: user.id, level, details, photos })
      .returning();
    if (!row) {
      throw new AppError("REQUEST_ERROR");
    }
    return toOwnerView(row);
  });
}

export function applyPrimaryKyc(db: Db, user: User, input: TPrimaryKycRequest) {
  return apply(
    db,
    user,
    "primary",
    {
      nationality: user.nationality,
      documentType: input.document_type,
      realName: input.real_name,
      documentNumber: input.document_number,
    },
    [
      { role: "front_upload_id", uploadId: input.front_upload_id },
      { role: "back_upload_id", uploadId: input.back_upload_id },
      { role: "handheld_upload_id", uploadId: input.handheld_upload_id },
    ],
  );
}

export function applyAdvancedKyc(db: Db, user: User, input: TAdvancedKycRequest) {
  return apply(
    db,
    user,
    "advanced",
    {
      occupation: input.occupation,
      monthlyIncome: input.monthly_income,
      sourceOfWealth: input.source_of_wealth,
      expectedInvestment: input.expected_investment,
    },
    input.assets.map((a) => ({ role: a.kind, uploadId: a.upload_id })),
    "primary",
  );
}

export function applyAddressProof(db: Db, user: User, input: { address: string; upload_id: string }) {
  return apply(
    db,
    user,
    "address",
    { address: input.address },
    [{ role: "bill", uploadId: input.upload_id }],
    "primary",
  );
}

export function applyCreditProof(db: Db, user: User, input: { note?: string; upload_id: string }) {
  return apply(
    db,
    user,
    "credit",
    { note: input.note ?? "" },
    [{ role: "proof", uploadId: input.upload_id }],
    "primary",
  );
}

type Row = typeof kycApplications.$inferSelect;

/** What lists show: the document number masked, the rest of the form as entered. */
export function maskDetails(details: Record<string, unknown>): Record<string, unknown> {
  const number = details.documentNumber;
  return typeof number === "string" ? { ...details, documentNumber: maskDocumentNumber(number) } : details;
}

function toOwnerView(row: Row) {
  return {
    id: row.id,
    level: row.level,
    status: row.status,
    details: maskDetails(row.details),
    photos: row.photos,
    rejectReason: row.rejectReason,
    rejectNote: row.rejectNote,
    createdAt: row.createdAt,
    reviewedAt: row.reviewedAt,
  };
}

/** The user's own verification: the latest application of each level, or null (unverified). */
export async function getMyVerification(db: DbOrTx, userId: number) {
  const latest = await latestApplications(db, userId);
  const view = (level: VerificationLevel) => {
    const row = latest(level);
    return row ? toOwnerView(row) : null;
  };
  return {
    primary: view("primary"),
    advanced: view("advanced"),
    address: view("address"),
    credit: view("credit"),
  };
}
