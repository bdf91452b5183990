import type { TSupportLine } from "@northstar/shared/contracts/messages";
import { and, desc, eq, lt, type SQL, sql } from "drizzle-orm";
import type { Redis } from "ioredis";
import type { Db, DbOrTx, Tx } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { users } from "../identity/index.ts";
import { publishSequenced, userEvent } from "../messages/index.ts";
import { getPolicy } from "../policy/index.ts";
import { uploadOwner } from "../uploads/index.ts";
import { supportConversations, supportMessages } from "./support.table.ts";

type Line = typeof supportMessages.$inferSelect;
const lineView = (row: Line): TSupportLine => ({
  id: row.id,
  conversation_id: row.conversationId,
  author: row.author,
  body: row.body,
  upload_id: row.uploadId,
  created_at: row.createdAt.toISOString(),
});

/** The Redis channel the operator console's sockets hear every conversation on (`support`). */
export const supportChannel = (prefix: string) => `${prefix}:md:support`;
const supportSeqKey = (prefix: string) => `${prefix}:support:seq`;

/**
 * Announces a new line after its transaction committed: to the user's sockets on their `user`
 * channel, and to every operator console on the `support` channel, through Redis pub/sub so a socket
 * on any API instance hears it.
 */
export async function announceSupportLine(
  redis: Redis,
  prefix: string,
  userId: number,
  line: TSupportLine,
): Promise<void> {
  const event = { type: "support", line };
  await publishSequenced(redis, [
    userEvent(prefix, userId, event),
    {
      seqKey: supportSeqKey(prefix),
      channel: supportChannel(prefix),
      ch: "support",
      data: { ...event, user_id: userId },
    },
  ]);
}

/**
 * Refuses a line when its writer has sent `limit` lines in the minute before `now`: the `limit`-th
 * newest of their lines is that recent. The caller holds the writer's lock (`lockWriter`), so
 * concurrent sends count each other's committed lines and together cannot pass the limit.
 */
async function assertPace(tx: Tx, writer: SQL, limit: number, now: Date): Promise<void> {
  const [edge] = await tx
    .select({ at: supportMessages.createdAt })
    .from(supportMessages)
    .where(writer)
    .orderBy(desc(supportMessages.id))
    .limit(1)
    .offset(limit - 1);
  if (edge && edge.at.getTime() > now.getTime() - 60_000) {
    throw new AppError("SUPPORT_TOO_FAST", { count: limit });
  }
}

/** Serialises one writer's sends until the transaction ends. */
async function lockWriter(tx: Tx, key: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`);
}

/** The user writes: their conversation is opened on first use; operators have one more unread line. */
export async function sendUserLine(
  db: Db,
  userId: number,
  input: { body: string; upload_id?: string },
  now: Date = new Date(),
): Promise<TSupportLine> {
  if (input.upload_id !== undefined && (await uploadOwner(db, input.upload_id)) !== userId) {
    // Someone else's upload, or none: as if it did not exist.
    throw new AppError("UPLOAD_MISSING", {}, "upload_id");
  }
  return db.transaction(async (tx) => {
    await lockWriter(tx, `support:user:${userId}`);
    const [existing] = await tx
      .select({ id: supportConversations.id })
      .from(supportConversations)
      .where(eq(supportConversations.userId, userId));
    if (existing) {
      await assertPace(
        tx,
        and(eq(supportMessages.conversationId, existing.id), eq(supportMessages.author, "user")) as SQL,
        await getPolicy(tx, "support.userLinesPerMinute"),
        now,
      );
    }
    const [conversation] = await tx
      .insert(supportConversations)
      .values({ userId, operatorUnread: 1, lastMessageAt: now })
      .onConflictDoUpdate({
        target: supportConversations.userId,
        set: {
          operatorUnread: sql`${supportConversations.operatorUnread} + 1`,
          lastMessageAt: now,
        },
      })
      .returning({ id: supportConversations.id });
    const [row] = await tx
      .insert(supportMessages)
      .values({
        conversationId: conversation?.id as number,
        author: "user",
        body: input.body,
        uploadId: input.upload_id ?? null,
        createdAt: now,
      })
      .returning();
    return lineView(row as Line);
  });
}

/** An operator answers a conversation; its user has one more unread line. */
export async function sendOperatorLine(
  db: Db,
  operatorId: number,
  input: { conversation_id: number; body: string },
  now: Date = new Date(),
): Promise<{ userId: number; line: TSupportLine }> {
  return db.transaction(async (tx) => {
    // A sane ceiling for one operator across conversations (a stuck script, a leaked session).
    await lockWriter(tx, `support:operator:${operatorId}`);
    await assertPace(
      tx,
      eq(supportMessages.operatorId, operatorId),
      await getPolicy(tx, "support.operatorLinesPerMinute"),
      now,
    );
    const [conversation] = await tx
      .update(supportConversations)
      .set({ userUnread: sql`${supportConversations.userUnread} + 1`, lastMessageAt: now })
      .where(eq(supportConversations.id, input.conversation_id))
      .returning({ id: supportConversations.id, userId: supportConversations.userId });
    if (!conversation) {
      throw new AppError("NOT_FOUND");
    }
    const [row] = await tx
      .insert(supportMessages)
      .values({
        conversationId: conversation.id,
        author: "operator",
        operatorId,
        body: input.body,
        createdAt: now,
      })
      .returning();
    return { userId: conversation.userId, line: lineView(row as Line) };
  });
}

async function history(db: DbOrTx, conversationId: number, beforeId: number | undefined, limit: number) {
  const rows = await db
    .select()
    .from(supportMessages)
    .where(
      and(
        eq(supportMessages.conversationId, conversationId),
        beforeId === undefined ? undefined : lt(supportMessages.id, beforeId),
      ),
    )
    .orderBy(desc(supportMessages.id))
    .limit(limit);
  // Oldest first, as a chat reads.
  return rows.reverse().map(lineView);
}

/** The user's own conversation (oldest line first) and how many operator lines they have not read. */
export async function userSupportHistory(
  db: DbOrTx,
  userId: number,
  options: { beforeId?: number; limit: number },
): Promise<{ unread: number; lines: TSupportLine[] }> {
  const [conversation] = await db
    .select({ id: supportConversations.id, unread: supportConversations.userUnread })
    .from(supportConversations)
    .where(eq(supportConversations.userId, userId));
  if (!conversation) {
    return { unread: 0, lines: [] };
  }
  return {
    unread: conversation.unread,
    lines: await history(db, conversation.id, options.beforeId, options.limit),
  };
}

export async function markSupportReadByUser(db: DbOrTx, userId: number): Promise<void> {
  await db
    .update(supportConversations)
    .set({ userUnread: 0 })
    .where(and(eq(supportConversations.userId, userId), sql`${supportConversations.userUnread} > 0`));
}

/** The operator console's list: conversations with the newest activity first. */
export async function listSupportConversations(db: DbOrTx, limit = 100) {
  const rows = await db
    .select({
      id: supportConversations.id,
      userId: supportConversations.userId,
      uid: users.uid,
      email: users.email,
      phone: users.phone,
      operatorUnread: supportConversations.operatorUnread,
      lastMessageAt: supportConversations.lastMessageAt,
    })
    .from(supportConversations)
    .innerJoin(users, eq(users.id, supportConversations.userId))
    .orderBy(desc(supportConversations.lastMessageAt), desc(supportConversations.id))
    .limit(limit);
  return rows.map((r) => ({
    id: r.id,
    user_id: r.userId,
    uid: r.uid,
    contact: r.email ?? r.phone ?? "",
    unread: r.operatorUnread,
    last_message_at: r.lastMessageAt.toISOString(),
  }));
}

/** One conversation's lines for an operator, oldest first. */
export async function operatorSupportHistory(
  db: DbOrTx,
  conversationId: number,
  options: { beforeId?: number; limit: number },
): Promise<{ userId: number; lines: TSupportLine[] }> {
  const [conversation] = await db
    .select({ id: supportConversations.id, userId: supportConversations.userId })
    .from(supportConversations)
    .where(eq(supportConversations.id, conversationId));
  if (!conversation) {
    throw new AppError("NOT_FOUND");
  }
  return {
    userId: conversation.userId,
    lines: await history(db, conversationId, options.beforeId, options.limit),
  };
}

/** The operators have read a conversation's lines. */
export async function markSupportReadByOperator(db: DbOrTx, conversationId: number): Promise<void> {
  const [conversation] = await db
    .update(supportConversations)
    .set({ operatorUnread: 0 })
    .where(eq(supportConversations.id, conversationId))
    .returning({ id: supportConversations.id });
  if (!conversation) {
    throw new AppError("NOT_FOUND");
  }
}
