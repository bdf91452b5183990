import { sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";

/**
 * Verification applications: primary KYC, advanced KYC, address proof and credit proof, one row per
 * application. "Unverified" is having none. At most one application per user and level is under
 * review or approved (the partial unique index): one at a time, and approved data is never replaced.
 * A rejected row stays as history; the user applies again with a new row.
 */
export const kycApplications = pgTable(
  "kyc_applications",
  {
    id: bigserial({ mode: "number" }).primaryKey(),
    userId: bigint({ mode: "number" }).notNull(),
    level: text({ enum: ["primary", "advanced", "address", "credit"] }).notNull(),
    status: text({ enum: ["under_review", "approved", "rejected"] })
      .notNull()
      .default("under_review"),
    /** The form's fields (document number included); shown masked in every list. */
    details: jsonb().$type<Record<string, unknown>>().notNull(),
    /** Private uploads of the applicant: role (front, back, handheld, house, …) → upload id. */
    photos: jsonb().$type<{ role: string; uploadId: string }[]>().notNull(),
    rejectReason: text(),
    rejectNote: text(),
    /** Points an operator granted with a credit proof (credit applications only). */
    assessmentPoints: integer(),
    reviewedBy: bigint({ mode: "number" }),
    reviewedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("kyc_applications_open_key").on(t.userId, t.level).where(sql`${t.status} <> 'rejected'`),
    index("kyc_applications_user_idx").on(t.userId, t.level, t.id),
    index("kyc_applications_status_idx").on(t.status, t.id),
  ],
);

/** Risk questionnaire answers; the latest row is the user's risk level. */
export const riskAssessments = pgTable(
  "risk_assessments",
  {
    id: bigserial({ mode: "number" }).primaryKey(),
    userId: bigint({ mode: "number" }).notNull(),
    answers: jsonb().$type<Record<string, number>>().notNull(),
    score: integer().notNull(),
    level: text({ enum: ["conservative", "balanced", "aggressive"] }).notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("risk_assessments_user_idx").on(t.userId, t.id)],
);
