import { sql } from "drizzle-orm";
import type { DbOrTx } from "../db/client.ts";

/**
 * What launchpad holds in users' exchange wallets (`held`), per user and currency, for the proof of
 * liabilities: the frozen payment of each subscription under review (in the pay currency) and the
 * allocated coins still locked (passed, not yet unlocked). By user, then currency; with `userId`, that user's alone (the assets
 * overview).
 */
export async function launchpadHolds(
  db: DbOrTx,
  userId?: number,
): Promise<{ userId: number; currency: string; amount: string }[]> {
  const rows = await db.execute<{ user_id: string; currency: string; amount: string }>(sql`
    select user_id, currency, sum(amount)::text as amount from (
      select s.user_id, o.pay_currency as currency, s.frozen as amount
      from launchpad_subscriptions s join launchpad_offerings o on o.id = s.offering_id
      where s.status = 'reviewing'${userId === undefined ? sql`` : sql` and s.user_id = ${userId}`}
      union all
      select s.user_id, o.coin, s.passed_quantity
      from launchpad_subscriptions s join launchpad_offerings o on o.id = s.offering_id
      where s.status = 'passed' and s.unlocked_at is null and s.passed_quantity > 0${userId === undefined ? sql`` : sql` and s.user_id = ${userId}`}
    ) h
    group by user_id, currency
    order by user_id, currency`);
  return rows.rows.map((r) => ({ userId: Number(r.user_id), currency: r.currency, amount: r.amount }));
}
