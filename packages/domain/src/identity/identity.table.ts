import {
  bigint,
  bigserial,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";

export const users = pgTable(
  "users",
  {
    id: bigserial({ mode: "number" }).primaryKey(),
    /** Public 8-digit user number shown to the user and support; ids stay internal. */
    uid: text().notNull().unique(),
    kind: text({ enum: ["real", "demo"] })
      .notNull()
      .default("real"),
    status: text({ enum: ["active", "frozen"] })
      .notNull()
      .default("active"),
    email: text(),
    areaCode: text(),
    phone: text(),
    passwordHash: text().notNull(),
    tradePasswordHash: text(),
    nationality: text().notNull(),
    /** This user's own invitation code, given to friends. */
    inviteCode: text().notNull().unique(),
    invitedBy: bigint({ mode: "number" }),
    nickname: text().notNull(),
    avatarUploadId: uuid(),
    language: text().notNull().default("en"),
    /** Demo accounts expire; the user is told to regenerate. Null for real accounts. */
    demoExpiresAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("users_email_key").on(t.email),
    uniqueIndex("users_phone_key").on(t.areaCode, t.phone),
    index("users_invited_by_idx").on(t.invitedBy),
  ],
);

/** Opaque session tokens, stored as SHA-256 hashes. A revoked session answers 2000 or 1000 by reason. */
export const sessions = pgTable(
  "sessions",
  {
    id: bigserial({ mode: "number" }).primaryKey(),
    userId: bigint({ mode: "number" })
      .notNull()
      .references(() => users.id),
    tokenHash: text().notNull().unique(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    revokedAt: timestamp({ withTimezone: true }),
    /** logout → the client dropped it (2000); password_changed, killed, frozen → ended by the server (1000). */
    revokeReason: text({ enum: ["logout", "password_changed", "killed", "frozen"] }),
    ip: text(),
    userAgent: text(),
  },
  (t) => [index("sessions_user_idx").on(t.userId)],
);

export const verificationCodes = pgTable(
  "verification_codes",
  {
    id: bigserial({ mode: "number" }).primaryKey(),
    channel: text({ enum: ["email", "phone"] }).notNull(),
    /** Normalised target: a lower-case email or +<area><phone>. */
    target: text().notNull(),
    purpose: text().notNull(),
    codeHash: text().notNull(),
    attempts: smallint().notNull().default(0),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    consumedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    ip: text(),
  },
  (t) => [index("verification_codes_target_idx").on(t.target, t.purpose, t.createdAt)],
);

export const securityAnswers = pgTable(
  "security_answers",
  {
    userId: bigint({ mode: "number" })
      .notNull()
      .references(() => users.id),
    questionId: smallint().notNull(),
    answerHash: text().notNull(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.questionId] })],
);

/**
 * Wrong guesses at a secret (trade password, Google code, security answers, operator password) per
 * subject and kind, shared by every call that checks that secret and by every API process.
 */
export const secretAttempts = pgTable(
  "secret_attempts",
  {
    /** `user:<id>`, `operator:<username>` or `address:<ip>`. */
    subject: text().notNull(),
    kind: text().notNull(),
    /** Confirmed wrong answers since the last right answer or the end of the last lock. */
    failures: integer().notNull().default(0),
    /**
     * Attempts in flight, each holding one of the limit's slots until its answer is known: a random
     * token mapped to when the slot lapses (epoch seconds), so a slot of a crashed process frees itself.
     */
    pending: jsonb().$type<Record<string, number>>().notNull().default({}),
    lockedUntil: timestamp({ withTimezone: true }),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.subject, t.kind] })],
);
