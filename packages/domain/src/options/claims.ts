import { sql } from "drizzle-orm";
import type { DbOrTx } from "../db/client.ts";
import type { Book } from "../ledger/index.ts";
import { OPTION_CURRENCY } from "./buy-option.ts";

/**
 * What open options owe their holders, per user, for the proof of liabilities: each open order's
 * stake (its amount; the fee is the platform's once bought). The stake sits in the shared
 * `options_house` account until settlement, so the per-user amount comes from the orders. By user; with `userId`, that user's alone (the assets
 * overview).
 */
export async function openOptionStakes(
  db: DbOrTx,
  book: Book,
  userId?: number,
): Promise<{ userId: number; currency: string; amount: string }[]> {
  const rows = await db.execute<{ user_id: string; amount: string }>(sql`
    select user_id, sum(amount)::text as amount from option_orders
    where status = 'open' and book = ${book}${userId === undefined ? sql`` : sql` and user_id = ${userId}`}
    group by user_id
    order by user_id`);
  return rows.rows.map((r) => ({ userId: Number(r.user_id), currency: OPTION_CURRENCY, amount: r.amount }));
}
