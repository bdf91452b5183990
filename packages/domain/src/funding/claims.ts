import { sql } from "drizzle-orm";
import type { DbOrTx } from "../db/client.ts";

/**
 * What pending withdrawals hold in users' exchange wallets (`held`), per user and currency, for the
 * proof of liabilities: the whole amount asked (the fee included) until an operator approves or
 * rejects, or the user cancels. By user, then currency; with `userId`, that user's alone (the assets overview).
 */
export async function pendingWithdrawalHolds(
  db: DbOrTx,
  userId?: number,
): Promise<{ userId: number; currency: string; amount: string }[]> {
  const rows = await db.execute<{ user_id: string; currency: string; amount: string }>(sql`
    select user_id, currency, sum(amount)::text as amount from withdrawals
    where status = 'pending'${userId === undefined ? sql`` : sql` and user_id = ${userId}`}
    group by user_id, currency
    order by user_id, currency`);
  return rows.rows.map((r) => ({ userId: Number(r.user_id), currency: r.currency, amount: r.amount }));
}
