import { sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  check,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uuid,
} from "drizzle-orm/pg-core";

/**
 * One customer-service conversation per user: when it last moved (the operator console lists the
 * newest first) and what each side has not read yet.
 */
export const supportConversations = pgTable(
  "support_conversations",
  {
    id: bigserial({ mode: "number" }).primaryKey(),
    userId: bigint({ mode: "number" }).notNull().unique(),
    userUnread: integer().notNull().default(0),
    operatorUnread: integer().notNull().default(0),
    lastMessageAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("support_conversations_last").on(t.lastMessageAt, t.id),
    check("support_conversations_unread", sql`${t.userUnread} >= 0 and ${t.operatorUnread} >= 0`),
  ],
);

/** A line of a conversation: the user's or an operator's text, or an image the user uploaded. */
export const supportMessages = pgTable(
  "support_messages",
  {
    id: bigserial({ mode: "number" }).primaryKey(),
    conversationId: bigint({ mode: "number" }).notNull(),
    author: text({ enum: ["user", "operator"] }).notNull(),
    operatorId: bigint({ mode: "number" }),
    body: text().notNull().default(""),
    uploadId: uuid(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("support_messages_conversation").on(t.conversationId, t.id),
    // An operator's newest replies, for their pace limit.
    index("support_messages_operator").on(t.operatorId, t.id).where(sql`${t.operatorId} is not null`),
    check("support_messages_content", sql`${t.body} <> '' or ${t.uploadId} is not null`),
  ],
);
