import type { TSpotFillView } from "@northstar/shared/contracts/spot";
import { MoneyDecimal } from "@northstar/shared/money";
import { SPOT_OPEN_STATUSES } from "@northstar/shared/state-machines";
import { and, asc, count, desc, eq, gte, inArray, lte, notInArray, or, type SQL } from "drizzle-orm";
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

/** One of the user's orders by id or by the client key it was placed with; null when none. */
export async function findOrder(
  db: DbOrTx,
  userId: number,
  by: { id: number; symbol?: string } | { clientKey: string; symbol?: string },
) {
  const conditions: SQL[] = [eq(spotOrders.userId, userId)];
  conditions.push("id" in by ? eq(spotOrders.id, by.id) : eq(spotOrders.clientKey, by.clientKey));
  if (by.symbol) {
    conditions.push(eq(spotOrders.symbol, by.symbol));
  }
  const [row] = await db
    .select()
    .from(spotOrders)
    .where(and(...conditions))
    .orderBy(asc(spotOrders.id))
    .limit(1);
  return row ?? null;
}

interface Range {
  symbol?: string | undefined;
  /** From this id on (inclusive); otherwise the latest `limit`. */
  fromId?: number | undefined;
  startTime?: Date | undefined;
  endTime?: Date | undefined;
  limit: number;
  open?: boolean | undefined;
}

/**
 * The user's orders as a trading bot pages them: from an id on, oldest first, or the latest `limit`
 * (answered oldest first too); `open` keeps only those that may still trade.
 */
export async function listOrderRows(db: DbOrTx, userId: number, range: Range) {
  const conditions: SQL[] = [eq(spotOrders.userId, userId)];
  if (range.symbol) {
    conditions.push(eq(spotOrders.symbol, range.symbol));
  }
  if (range.open) {
    conditions.push(inArray(spotOrders.status, [...SPOT_OPEN_STATUSES]));
  }
  if (range.fromId !== undefined) {
    conditions.push(gte(spotOrders.id, range.fromId));
  }
  if (range.startTime) {
    conditions.push(gte(spotOrders.createdAt, range.startTime));
  }
  if (range.endTime) {
    conditions.push(lte(spotOrders.createdAt, range.endTime));
  }
  const ascending =
    range.fromId !== undefined || (range.startTime !== undefined && range.endTime === undefined);
  const rows = await db
    .select()
    .from(spotOrders)
    .where(and(...conditions))
    .orderBy(ascending ? asc(spotOrders.id) : desc(spotOrders.id))
    .limit(range.limit);
  return ascending ? rows : rows.reverse();
}

/** The user's fills in one market as a trading bot pages them (see listOrderRows), oldest first. */
export async function listFillRows(
  db: DbOrTx,
  userId: number,
  range: Range & { orderId?: number | undefined },
) {
  const conditions: SQL[] = [
    or(eq(spotTrades.makerUserId, userId), eq(spotTrades.takerUserId, userId)) as SQL,
  ];
  if (range.symbol) {
    conditions.push(eq(spotTrades.symbol, range.symbol));
  }
  if (range.orderId !== undefined) {
    conditions.push(
      or(eq(spotTrades.makerOrderId, range.orderId), eq(spotTrades.takerOrderId, range.orderId)) as SQL,
    );
  }
  if (range.fromId !== undefined) {
    conditions.push(gte(spotTrades.id, range.fromId));
  }
  if (range.startTime) {
    conditions.push(gte(spotTrades.createdAt, range.startTime));
  }
  if (range.endTime) {
    conditions.push(lte(spotTrades.createdAt, range.endTime));
  }
  const ascending =
    range.fromId !== undefined || (range.startTime !== undefined && range.endTime === undefined);
  const rows = await db
    .select({ trade: spotTrades, base: spotOrders.base, quote: spotOrders.quote, side: spotOrders.side })
    .from(spotTrades)
    .innerJoin(
      spotOrders,
      or(
        and(eq(spotOrders.id, spotTrades.takerOrderId), eq(spotTrades.takerUserId, userId)),
        and(eq(spotOrders.id, spotTrades.makerOrderId), eq(spotTrades.makerUserId, userId)),
      ),
    )
    .where(and(...conditions))
    .orderBy(ascending ? asc(spotTrades.id) : desc(spotTrades.id))
    .limit(range.limit);
  const ordered = ascending ? rows : rows.reverse();
  return ordered.map(({ trade, base, quote, side }) => {
    const role = trade.takerUserId === userId ? ("taker" as const) : ("maker" as const);
    return {
      id: trade.id,
      orderId: (role === "taker" ? trade.takerOrderId : trade.makerOrderId) ?? 0,
      symbol: trade.symbol,
      side,
      role,
      price: new MoneyDecimal(trade.price).toFixed(),
      quantity: new MoneyDecimal(trade.quantity).toFixed(),
      quoteQty: new MoneyDecimal(trade.quoteQty).toFixed(),
      fee: new MoneyDecimal(role === "taker" ? trade.takerFee : trade.makerFee).toFixed(),
      feeCurrency: side === "buy" ? base : quote,
      time: new Date(trade.createdAt).getTime(),
    };
  });
}
