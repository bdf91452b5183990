import type { TSpotFillView } from "@northstar/shared/contracts/spot";
import { MoneyDecimal } from "@northstar/shared/money";
import { SPOT_OPEN_STATUSES } from "@northstar/shared/state-machines";
import { and, count, desc, eq, inArray, notInArray, or, type SQL } from "drizzle-orm";
import type { DbOrTx } from "../db/client.ts";
import { toOrderView } from "./order-view.ts";
import { spotOrders, spotTrades } from "./spot.table.ts";

interface Page {
  page: number;
  pageSize: number;
}

/** The user's orders: `open` (may still trade) or `history` (finished), newest first. */
export async function listOrders(
  db: DbOrTx,
  userId: number,
  params: Page & { scope: "open" | "history"; symbol?: string | undefined },
) {
  const conditions: SQL[] = [eq(spotOrders.userId, userId)];
  const open = [...SPOT_OPEN_STATUSES];
  conditions.push(
    params.scope === "open" ? inArray(spotOrders.status, open) : notInArray(spotOrders.status, open),
  );
  if (params.symbol) {
    conditions.push(eq(spotOrders.symbol, params.symbol));
  }
  const where = and(...conditions);
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(spotOrders)
      .where(where)
      .orderBy(desc(spotOrders.id))
      .limit(params.pageSize)
      .offset((params.page - 1) * params.pageSize),
    db.select({ n: count() }).from(spotOrders).where(where),
  ]);
  return { items: rows.map(toOrderView), total: total?.n ?? 0 };
}

/** The user's fills, newest first, each from the user's side (a self-trade is not possible). */
export async function listFills(db: DbOrTx, userId: number, params: Page & { symbol?: string | undefined }) {
  const mine = or(eq(spotTrades.makerUserId, userId), eq(spotTrades.takerUserId, userId));
  const where = params.symbol ? and(mine, eq(spotTrades.symbol, params.symbol)) : mine;
  const [rows, [total]] = await Promise.all([
    db
      .select({ trade: spotTrades, base: spotOrders.base, quote: spotOrders.quote, side: spotOrders.side })
      .from(spotTrades)
      .innerJoin(
        spotOrders,
        or(
          and(eq(spotOrders.id, spotTrades.takerOrderId), eq(spotTrades.takerUserId, userId)),
          and(eq(spotOrders.id, spotTrades.makerOrderId), eq(spotTrades.makerUserId, userId)),
        ),
      )
      .where(where)
      .orderBy(desc(spotTrades.id))
      .limit(params.pageSize)
      .offset((params.page - 1) * params.pageSize),
    db.select({ n: count() }).from(spotTrades).where(where),
  ]);
  const items: TSpotFillView[] = rows.map(({ trade, base, quote, side }) => {
    const role = trade.takerUserId === userId ? "taker" : "maker";
    return {
      id: trade.id,
      order_id: (role === "taker" ? trade.takerOrderId : trade.makerOrderId) ?? 0,
      symbol: trade.symbol,
      side,
      role,
      price: new MoneyDecimal(trade.price).toFixed(),
      quantity: new MoneyDecimal(trade.quantity).toFixed(),
      quote_qty: new MoneyDecimal(trade.quoteQty).toFixed(),
      fee: new MoneyDecimal(role === "taker" ? trade.takerFee : trade.makerFee).toFixed(),
      fee_currency: side === "buy" ? base : quote,
      created_at: new Date(trade.createdAt).toISOString(),
    };
  });
  return { items, total: total?.n ?? 0 };
}
