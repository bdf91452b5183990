import type { TOptionOrderView } from "@northstar/shared/contracts/options";
import { MoneyDecimal } from "@northstar/shared/money";
import { count, desc, ne, sql } from "drizzle-orm";
import type { DbOrTx } from "../db/client.ts";
import type { Book } from "../ledger/index.ts";
import { optionOrders } from "./options.table.ts";
import { toOptionView } from "./order-view.ts";

const plain = (v: string) => new MoneyDecimal(v).toFixed();

export interface OptionExposure {
  book: Book;
  symbol: string;
  period_seconds: number;
  orders: number;
  up_amount: string;
  down_amount: string;
}

/** Open orders' amounts per book, instrument and period, for the back office. */
export async function optionExposure(db: DbOrTx): Promise<OptionExposure[]> {
  const rows = await db.execute<{
    book: Book;
    symbol: string;
    period_seconds: number;
    orders: number;
    up_amount: string;
    down_amount: string;
  }>(sql`
    select book, symbol, period_seconds, count(*)::int as orders,
      coalesce(sum(amount) filter (where direction = 'up'), 0)::text as up_amount,
      coalesce(sum(amount) filter (where direction = 'down'), 0)::text as down_amount
    from option_orders where status = 'open'
    group by book, symbol, period_seconds
    order by book, symbol, period_seconds`);
  return rows.rows.map((r) => ({
    ...r,
    period_seconds: Number(r.period_seconds),
    orders: Number(r.orders),
    up_amount: plain(r.up_amount),
    down_amount: plain(r.down_amount),
  }));
}

export type OptionHouseResult = {
  book: Book;
  orders: number;
  amount: string;
  fees: string;
  payouts: string;
  /** What the house kept: amounts + fees − payouts of settled orders (the users' results, negated). */
  result: string;
};

/** The house result of settled orders per book. */
export async function optionHouseResult(db: DbOrTx): Promise<OptionHouseResult[]> {
  const rows = await db.execute<OptionHouseResult>(sql`
    select book, count(*)::int as orders, coalesce(sum(amount), 0)::text as amount,
      coalesce(sum(fee), 0)::text as fees, coalesce(sum(payout), 0)::text as payouts,
      (-coalesce(sum(profit), 0))::text as result
    from option_orders where status <> 'open'
    group by book order by book`);
  return rows.rows.map((r) => ({
    ...r,
    orders: Number(r.orders),
    amount: plain(r.amount),
    fees: plain(r.fees),
    payouts: plain(r.payouts),
    result: plain(r.result),
  }));
}

/** Settled orders, newest settlement first, with the buyer's id, for the back office. */
export async function listSettledOptions(
  db: DbOrTx,
  query: { page: number; pageSize: number },
): Promise<{ items: (TOptionOrderView & { user_id: number; book: Book })[]; total: number }> {
  const settled = ne(optionOrders.status, "open");
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(optionOrders)
      .where(settled)
      .orderBy(desc(optionOrders.settledAt), desc(optionOrders.id))
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize),
    db.select({ n: count() }).from(optionOrders).where(settled),
  ]);
  return {
    items: rows.map((row) => ({ ...toOptionView(row), user_id: row.userId, book: row.book })),
    total: total?.n ?? 0,
  };
}
