import { UNREAD_BADGE_CAP } from "@northstar/shared/contracts/messages";
import { and, count, eq, isNull, sql } from "drizzle-orm";
import { type DbOrTx, executePrepared } from "../db/client.ts";
import { userMessages } from "./messages.table.ts";

export async function countUnread(db: DbOrTx, userId: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(userMessages)
    .where(and(eq(userMessages.userId, userId), isNull(userMessages.readAt)));
  return row?.n ?? 0;
}

/**
 * The live badge counts of many users in one statement (0 for a user with none), by user id: each
 * counted up to UNREAD_BADGE_CAP, so the count costs at most that many index entries per user however
 * many messages a trader's fills have left unread.
 */
export async function countUnreadMany(db: DbOrTx, userIds: number[]): Promise<Map<number, number>> {
  const counts = new Map(userIds.map((id) => [id, 0]));
  if (userIds.length === 0) {
    return counts;
  }
  const rows = await executePrepared<{ user_id: number; n: number }>(
    db,
    // Each user's own probe of the partial index on (user_id) where unread, stopping at the cap.
    sql`select u.id as user_id, (select count(*)::int from (
          select 1 from user_messages m where m.user_id = u.id and m.read_at is null
          limit ${UNREAD_BADGE_CAP}) as capped) as n
        from unnest(${`{${userIds.join(",")}}`}::bigint[]) as u(id)
        order by u.id`,
  );
  for (const row of rows.rows) {
    counts.set(Number(row.user_id), Number(row.n));
  }
  return counts;
}
