import { sql } from "drizzle-orm";
import { bigint, bigserial, index, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";

/**
 * A message to one user, created by an event in another module (a deposit confirmed, a KYC decision).
 * It keeps its kind and params, not text: it is rendered in the reader's language when read. `eventKey`
 * names the event, so an event delivered twice leaves one message.
 */
export const userMessages = pgTable(
  "user_messages",
  {
    id: bigserial({ mode: "number" }).primaryKey(),
    userId: bigint({ mode: "number" }).notNull(),
    kind: text().notNull(),
    params: jsonb().$type<Record<string, string>>().notNull().default({}),
    eventKey: text().notNull(),
    readAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("user_messages_event_key").on(t.userId, t.eventKey),
    index("user_messages_user_id").on(t.userId, t.id),
    index("user_messages_unread").on(t.userId).where(sql`${t.readAt} is null`),
  ],
);
