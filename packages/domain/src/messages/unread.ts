import { and, count, eq, isNull } from "drizzle-orm";
import type { DbOrTx } from "../db/client.ts";
import { userMessages } from "./messages.table.ts";

export async function countUnread(db: DbOrTx, userId: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(userMessages)
    .where(and(eq(userMessages.userId, userId), isNull(userMessages.readAt)));
  return row?.n ?? 0;
}
