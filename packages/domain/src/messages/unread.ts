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

/** The unread counts of many users in one statement (0 for a user with none), by user id. */
export async function countUnreadMany(db: DbOrTx, userIds: number[]): Promise<Map<number, number>> {
  const counts = new Map(userIds.map((id) => [id, 0]));
  if (userIds.length === 0) {
    return counts;
  }
  const rows = await executePrepared<{ user_id: number; n: number }>(
    db,
    // A list, not a join: the partial index on (user_id) where unread answers each user, whatever
    // the table's statistics say (a join was planned as a read of every unread message).
    sql`select user_id, count(*)::int as n from user_messages
        where user_id = any(${`{${userIds.join(",")}}`}::bigint[]) and read_at is null
        group by user_id order by user_id`,
  );
  for (const row of rows.rows) {
    counts.set(Number(row.user_id), Number(row.n));
  }
  return counts;
}
