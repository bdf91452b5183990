import { bigint, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/** Operator overrides of policy defaults; absent key means the default of packages/shared applies. */
export const policyOverrides = pgTable("policy_overrides", {
  key: text().primaryKey(),
  value: jsonb().notNull(),
  updatedBy: bigint({ mode: "number" }),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});
