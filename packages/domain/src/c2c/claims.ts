import { sql } from "drizzle-orm";
import type { DbOrTx } from "../db/client.ts";

/**
 * Coins reserved for users' C2C purchases, per user and coin, for the proof of liabilities: the
 * coin amount of every matched or paid order, held in the merchant's `c2c_reserved:<merchant>`
 * account until the order completes (to the user) or ends (back to the merchant). By user, then coin; with `userId`, that user's alone (the assets
 * overview).
 */
export async function c2cReservedClaims(
  db: DbOrTx,
  userId?: number,
): Promise<{ userId: number; currency: string; amount: string }[]> {
  const rows = await db.execute<{ user_id: string; currency: string; amount: string }>(sql`
    select user_id, coin as currency, sum(coin_amount)::text as amount from c2c_orders
    where status in ('matched', 'paid')${userId === undefined ? sql`` : sql` and user_id = ${userId}`}
    group by user_id, coin
    order by user_id, coin`);
  return rows.rows.map((r) => ({ userId: Number(r.user_id), currency: r.currency, amount: r.amount }));
}
