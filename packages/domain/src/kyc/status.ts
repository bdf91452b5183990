import type { VerificationLevel } from "@northstar/shared/kyc";
import type { KycApplicationStatus } from "@northstar/shared/state-machines";
import { and, desc, eq } from "drizzle-orm";
import type { DbOrTx } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { kycApplications } from "./kyc.table.ts";

export type VerificationStatus = "unverified" | KycApplicationStatus;

/** Ids arrive as strings from other modules; anything but a positive integer reaches no user. */
export function toUserId(userId: string | number): number {
  const id = typeof userId === "number" ? userId : Number(userId);
  if (!Number.isSafeInteger(id) || id <= 0) {
    throw new AppError("NOT_FOUND");
  }
  return id;
}

/** The user's latest application of each level (none: unverified). */
export async function latestApplications(db: DbOrTx, userId: number) {
  const rows = await db
    .selectDistinctOn([kycApplications.level])
    .from(kycApplications)
    .where(eq(kycApplications.userId, userId))
    .orderBy(kycApplications.level, desc(kycApplications.id));
  const byLevel = new Map(rows.map((r) => [r.level, r]));
  return (level: VerificationLevel) => byLevel.get(level);
}

export async function levelStatus(
  db: DbOrTx,
  userId: number,
  level: VerificationLevel,
): Promise<VerificationStatus> {
  const [row] = await db
    .select({ status: kycApplications.status })
    .from(kycApplications)
    .where(and(eq(kycApplications.userId, userId), eq(kycApplications.level, level)))
    .orderBy(desc(kycApplications.id))
    .limit(1);
  return row?.status ?? "unverified";
}
