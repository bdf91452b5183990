import { bigint, index, integer, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";

/** Private uploads. Files live under UPLOAD_DIR by id; only the owner and operators can read them. */
export const uploads = pgTable(
  "uploads",
  {
    id: uuid().primaryKey().defaultRandom(),
    ownerUserId: bigint({ mode: "number" }).notNull(),
    purpose: text().notNull(),
    mime: text().notNull(),
    size: integer().notNull(),
    sha256: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  // The quota counts a user's uploads of the last day and in all.
  (t) => [index("uploads_owner_idx").on(t.ownerUserId, t.createdAt)],
);
