import type { TMessageKind, TMessageView } from "@northstar/shared/contracts/messages";
import { translate } from "@northstar/shared/i18n";
import { LANGUAGE_INFO, type Language } from "@northstar/shared/languages";
import { and, count, desc, eq, isNull, type SQL, sql } from "drizzle-orm";
import { listCurrencyDecimals } from "../currencies/index.ts";
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

/** Params holding an amount, and the param naming its currency: shown at that currency's decimals. */
const AMOUNT_PARAMS: Record<string, string> = {
  amount: "currency",
  fee: "currency",
  coinAmount: "coin",
  fiatAmount: "fiat",
  filledQty: "base",
  filledQuote: "quote",
};

/** Decimals of a unit the platform does not hold as a currency (a C2C fiat, say). */
const DEFAULT_DECIMALS = 2;

/**
 * Renders a stored message in the reader's language. Amounts are stored as the ledger holds them
 * (`1000.000000000000000000`); they are shown grouped, cut to the currency's decimals and without
 * trailing zeros (`1,000`), so a message never shows more digits than the wallet can hold.
 */
export function renderMessage(
  lang: Language,
  kind: string,
  params: Record<string, string>,
  decimals: ReadonlyMap<string, number> = new Map(),
): { title: string; body: string } {
  const values: Record<string, string> = {};
  for (const [name, value] of Object.entries(params)) {
    const catalog = TRANSLATED_PARAMS[name];
    const unit = AMOUNT_PARAMS[name];
    values[name] = catalog
      ? translate(lang, `${catalog}.${value}`)
      : unit
        ? formatAmount(lang, value, decimals.get(params[unit] ?? "") ?? DEFAULT_DECIMALS)
        : value;
  }
  return {
    title: translate(lang, `messages.kind.${kind}.title`, values),
    body: translate(lang, `messages.kind.${kind}.body`, values),
  };
}

function formatAmount(lang: Language, value: string, decimals: number): string {
  if (!/^-?\d+(\.\d+)?$/.test(value)) {
    return value;
  }
  // A decimal string formats exactly (no float on the way); digits past the currency's are cut, not rounded up.
  return new Intl.NumberFormat(LANGUAGE_INFO[lang].bcp47, {
    maximumFractionDigits: decimals,
    roundingMode: "trunc",
  }).format(value as unknown as number);
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
  const [rows, [total], unread, currencyDecimals] = await Promise.all([
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
    listCurrencyDecimals(db),
  ]);
  const decimals = new Map(currencyDecimals.map((c) => [c.code, c.decimals]));
  return {
    total: total?.n ?? 0,
    unread,
    list: rows.map((row) => ({
      id: row.id,
      kind: row.kind as TMessageKind,
      ...renderMessage(lang, row.kind, row.params, decimals),
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
