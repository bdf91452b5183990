import type { TMessageKind, TMessageView } from "@northstar/shared/contracts/messages";
import { translate } from "@northstar/shared/i18n";
import type { Language } from "@northstar/shared/languages";
import { and, count, desc, eq, isNull, type SQL, sql } from "drizzle-orm";
import { type DbOrTx, executePrepared } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { userMessages } from "./messages.table.ts";
import { noteMessagesFor } from "./nudges.ts";
import { countUnread } from "./unread.ts";

/** Params whose value is a key into another catalog: rendered as that text, in the reader's language. */
const TRANSLATED_PARAMS: Record<string, string> = {
  level: "kyc.title",
  kycReason: "kyc.reasons",
  side: "messages.side",
};

export interface NewMessage {
  userId: number;
  kind: TMessageKind;
  params?: Record<string, string>;
  /** Names the event (e.g. `deposit:12:confirmed`): the same event adds one message however often it runs. */
  eventKey: string;
}

/**
 * Adds a message inside the caller's transaction, so it exists exactly when the event's own change
 * does. The owner's socket hears the new unread count once that transaction commits (see nudges.ts).
 */
export async function addMessage(tx: DbOrTx, message: NewMessage): Promise<void> {
  await addMessages(tx, [message]);
}

/** Adds several messages in one statement (a matcher batch's fills); the same rules as `addMessage`. */
export async function addMessages(tx: DbOrTx, messages: readonly NewMessage[]): Promise<void> {
  if (messages.length === 0) {
    return;
  }
  // One JSON parameter, one statement text whatever the number of messages: its plan is kept (the
  // spot matcher adds messages in every batch with fills).
  const json = JSON.stringify(
    messages.map((m, ord) => ({
      ord,
      user_id: m.userId,
      kind: m.kind,
      params: m.params ?? {},
      event_key: m.eventKey,
    })),
  );
  const added = await executePrepared<{ user_id: number }>(
    tx,
    sql`insert into user_messages (user_id, kind, params, event_key)
        select user_id, kind, params, event_key
        from jsonb_to_recordset(${json}::jsonb)
          as v(user_id bigint, kind text, params jsonb, event_key text, ord int)
        order by ord
        on conflict do nothing
        returning user_id`,
  );
  noteMessagesFor(tx, new Set(added.rows.map((row) => Number(row.user_id))));
}

export function renderMessage(
  lang: Language,
  kind: string,
  params: Record<string, string>,
): { title: string; body: string } {
  const values: Record<string, string> = {};
  for (const [name, value] of Object.entries(params)) {
    const catalog = TRANSLATED_PARAMS[name];
    values[name] = catalog ? translate(lang, `${catalog}.${value}`) : value;
  }
  return {
    title: translate(lang, `messages.kind.${kind}.title`, values),
    body: translate(lang, `messages.kind.${kind}.body`, values),
  };
}

/** The owner's messages, newest first, rendered in `lang`. */
export async function listMessages(
  db: DbOrTx,
  userId: number,
  lang: Language,
  options: { page: number; pageSize: number; unreadOnly?: boolean },
): Promise<{ total: number; unread: number; list: TMessageView[] }> {
  const where: SQL[] = [eq(userMessages.userId, userId)];
  if (options.unreadOnly) {
    where.push(isNull(userMessages.readAt));
  }
  const [rows, [total], unread] = await Promise.all([
    db
      .select()
      .from(userMessages)
      .where(and(...where))
      .orderBy(desc(userMessages.id))
      .limit(options.pageSize)
      .offset((options.page - 1) * options.pageSize),
    db
      .select({ n: count() })
      .from(userMessages)
      .where(and(...where)),
    countUnread(db, userId),
  ]);
  return {
    total: total?.n ?? 0,
    unread,
    list: rows.map((row) => ({
      id: row.id,
      kind: row.kind as TMessageKind,
      ...renderMessage(lang, row.kind, row.params),
      read: row.readAt !== null,
      created_at: row.createdAt.toISOString(),
    })),
  };
}

/** Marks one of the owner's messages read; another user's id is not found. Reading twice is fine. */
export async function markMessageRead(db: DbOrTx, userId: number, id: number): Promise<{ unread: number }> {
  const [row] = await db
    .select({ id: userMessages.id, readAt: userMessages.readAt })
    .from(userMessages)
    .where(and(eq(userMessages.id, id), eq(userMessages.userId, userId)));
  if (!row) {
    throw new AppError("NOT_FOUND");
  }
  if (row.readAt === null) {
    await db
      .update(userMessages)
      .set({ readAt: new Date() })
      .where(and(eq(userMessages.id, id), eq(userMessages.userId, userId), isNull(userMessages.readAt)));
    noteMessagesFor(db, [userId]);
  }
  return { unread: await countUnread(db, userId) };
}

export async function markAllMessagesRead(db: DbOrTx, userId: number): Promise<{ marked: number }> {
  const marked = await db
    .update(userMessages)
    .set({ readAt: new Date() })
    .where(and(eq(userMessages.userId, userId), isNull(userMessages.readAt)))
    .returning({ id: userMessages.id });
  if (marked.length > 0) {
    noteMessagesFor(db, [userId]);
  }
  return { marked: marked.length };
}
