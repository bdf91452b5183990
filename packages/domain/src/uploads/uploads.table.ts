import { bigint, integer, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";

/** Private uploads. Files live under UPLOAD_DIR by id; only the owner and operators can read them. */
export const uploads = pgTable("uploads", {
  id: uuid().primaryKey().defaultRandom(),
  ownerUserId: bigint({ mode: "number" }).notNull(),
  purpose: text().notNull(),
  mime: text().notNull(),
  size: integer().notNull(),
  sha256: text().notNull(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});
