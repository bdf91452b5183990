import { MoneyDecimal } from "@northstar/shared/money";
import { and, eq, sql } from "drizzle-orm";
import { type DbOrTx, executePrepared } from "../db/client.ts";
import { getPolicy } from "../policy/index.ts";
import { deposits, tradeTurnover, walletTransfers } from "./funding.table.ts";

export interface TradeTurnoverRow {
  userId: number;
  /** The trading module that reports it ("spot"). */
  source: string;
  /** Unique per fill side (`spot_trade:42:taker`): a replayed settlement counts once. */
  reference: string;
  valueUsdt: string;
}

/**
 * Trading modules sit above funding, so funding does not read their tables: they report the USDT
 * value of each real-book fill here, in the transaction that settles it.
 */
export async function recordTradeTurnover(db: DbOrTx, rows: TradeTurnoverRow[]): Promise<void> {
  if (rows.length === 0) {
    return;
  }
  // One JSON parameter, one statement text whatever the number of rows: its plan is kept (a matcher
  // batch reports dozens of fills).
  const json = JSON.stringify(
    rows.map((r, ord) => ({
      ord,
      user_id: r.userId,
      source: r.source,
      reference: r.reference,
      value_usdt: r.valueUsdt,
    })),
  );
  await executePrepared(
    db,
    sql`insert into trade_turnover (user_id, source, reference, value_usdt)
        select user_id, source, reference, value_usdt
        from jsonb_to_recordset(${json}::jsonb)
          as v(user_id bigint, source text, reference text, value_usdt numeric, ord int)
        order by ord
        on conflict (reference) do nothing`,
  );
}

/**
 * The withdrawal turnover requirement (SPEC section 9: "90% of total consumption required first"):
 * the USDT value a user has traded or converted must reach `funding.withdraw.turnoverRatio` of the
 * USDT value of their confirmed deposits. Conversions count, and so do the trades that trading
 * modules report through `recordTradeTurnover` (spot fills, both maker and taker sides).
 */
export async function getTurnoverProgress(db: DbOrTx, userId: number) {
  const ratio = await getPolicy(db, "funding.withdraw.turnoverRatio");
  const [dep] = await db
    .select({ total: sql<string>`coalesce(sum(${deposits.valueUsdt}), 0)::text` })
    .from(deposits)
    .where(and(eq(deposits.userId, userId), eq(deposits.status, "success")));
  const [done] = await db
    .select({ total: sql<string>`coalesce(sum(${walletTransfers.turnoverUsdt}), 0)::text` })
    .from(walletTransfers)
    .where(and(eq(walletTransfers.userId, userId), eq(walletTransfers.book, "real")));
  const [traded] = await db
    .select({ total: sql<string>`coalesce(sum(${tradeTurnover.valueUsdt}), 0)::text` })
    .from(tradeTurnover)
    .where(eq(tradeTurnover.userId, userId));
  const required = new MoneyDecimal(dep?.total ?? "0").times(ratio).toDecimalPlaces(2, MoneyDecimal.ROUND_UP);
  const achieved = new MoneyDecimal(done?.total ?? "0")
    .plus(traded?.total ?? "0")
    .toDecimalPlaces(2, MoneyDecimal.ROUND_DOWN);
  return {
    ratio,
    required: required.toFixed(2),
    done: achieved.toFixed(2),
    met: achieved.greaterThanOrEqualTo(required),
  };
}
