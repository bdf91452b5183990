import { bigserial, index, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/** Every operator action, append-only. `actor` is "operator:<id>" or "cli" or "system". */
export const auditLog = pgTable(
  "audit_log",
  {
    id: bigserial({ mode: "number" }).primaryKey(),
    actor: text().notNull(),
    action: text().notNull(),
    subject: text(),
    details: jsonb().notNull().default({}),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("audit_log_created_idx").on(t.createdAt), index("audit_log_actor_idx").on(t.actor, t.id)],
);
