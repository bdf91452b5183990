import type { IdempotentRequestStatus } from "@northstar/shared/state-machines";
import { bigint, bigserial, index, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";

/**
 * A money request sent under an idempotency key (the tRPC Idempotency-Key header or a legacy
 * `rtoken`). Claimed `running` before the action runs; `done` with the answer in the action's own
 * transaction, so an applied action never lacks its record. Kept for `idempotency.retentionHours`.
 */
export const idempotentRequests = pgTable(
  "idempotent_requests",
  {
    id: bigserial({ mode: "number" }).primaryKey(),
    userId: bigint({ mode: "number" }).notNull(),
    key: text().notNull(),
    /** The procedure or legacy call, e.g. `withdrawal.create`: one key serves one action. */
    action: text().notNull(),
    /** SHA-256 of the action and its parsed input (secrets left out): the same key with other input is refused. */
    requestHash: text().notNull(),
    status: text().$type<IdempotentRequestStatus>().notNull().default("running"),
    /** The first answer as JSON text (a jsonb column would parse a JSON string twice on reading). */
    answer: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    uniqueIndex("idempotent_requests_user_key_idx").on(t.userId, t.key),
    // Deleting expired records a few at a time on each new claim.
    index("idempotent_requests_created_idx").on(t.createdAt),
  ],
);
