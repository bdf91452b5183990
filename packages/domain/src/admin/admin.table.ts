import { bigint, bigserial, pgTable, text, timestamp } from "drizzle-orm/pg-core";

export const OPERATOR_ROLES = ["admin", "finance", "support", "content", "compliance"] as const;
export type OperatorRole = (typeof OPERATOR_ROLES)[number];

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

export const operatorSessions = pgTable("operator_sessions", {
  id: bigserial({ mode: "number" }).primaryKey(),
  operatorId: bigint({ mode: "number" })
    .notNull()
    .references(() => operators.id),
  tokenHash: text().notNull().unique(),
  expiresAt: timestamp({ withTimezone: true }).notNull(),
  revokedAt: timestamp({ withTimezone: true }),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});
