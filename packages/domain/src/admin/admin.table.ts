import { OPERATOR_ROLES } from "@northstar/shared/operators";
import { bigint, bigserial, index, pgTable, text, timestamp } from "drizzle-orm/pg-core";

export { OPERATOR_ROLES, type OperatorRole } from "@northstar/shared/operators";

export const operators = pgTable("operators", {
  id: bigserial({ mode: "number" }).primaryKey(),
  username: text().notNull().unique(),
  passwordHash: text().notNull(),
  role: text({ enum: OPERATOR_ROLES }).notNull(),
  status: text({ enum: ["active", "disabled"] })
    .notNull()
    .default("active"),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

export const operatorSessions = pgTable(
  "operator_sessions",
  {
    id: bigserial({ mode: "number" }).primaryKey(),
    operatorId: bigint({ mode: "number" })
      .notNull()
      .references(() => operators.id),
    tokenHash: text().notNull().unique(),
    /** Where the session was opened from, shown in the operator's session list. */
    address: text(),
    userAgent: text(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    revokedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("operator_sessions_operator_idx").on(t.operatorId, t.createdAt)],
);

/** An operator's TOTP secret; `enabledAt` is set once the operator proved a first code. */
export const operatorTotp = pgTable("operator_totp", {
  operatorId: bigint({ mode: "number" })
    .primaryKey()
    .references(() => operators.id),
  /** Encrypted (AES-256-GCM, scope "operator_totp") with the key named in its prefix. */
  secret: text().notNull(),
  enabledAt: timestamp({ withTimezone: true }),
  /** The last accepted 30-second step: a code is accepted only for a newer step, so once. */
  lastStep: bigint({ mode: "number" }),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});
