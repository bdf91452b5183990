import type { TRecordedTick } from "@northstar/shared/contracts/markets";
import type { TOptionOrderView } from "@northstar/shared/contracts/options";
import { and, count, desc, eq, ne } from "drizzle-orm";
import type { DbOrTx } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { optionOrders, optionTicks } from "./options.table.ts";
import { toOptionView } from "./order-view.ts";
import { optionTicksAround } from "./ticks.ts";

const settlementTick = {
  id: optionTicks.id,
  price: optionTicks.price,
  time: optionTicks.time,
  source: optionTicks.source,
  sourceTime: optionTicks.sourceTime,
};

/** A user's options orders: `open` (newest first) or `history`, the delivery record (newest first). */
export async function listOptionOrders(
  db: DbOrTx,
  userId: number,
  query: { scope: "open" | "history"; page: number; pageSize: number },
): Promise<{ items: TOptionOrderView[]; total: number }> {
  const where = and(
    eq(optionOrders.userId, userId),
    query.scope === "open" ? eq(optionOrders.status, "open") : ne(optionOrders.status, "open"),
  );
  const [rows, [total]] = await Promise.all([
    db
      .select({ order: optionOrders, tick: settlementTick })
      .from(optionOrders)
      .leftJoin(optionTicks, eq(optionTicks.id, optionOrders.settlementTickId))
      .where(where)
      .orderBy(desc(optionOrders.id))
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize),
    db.select({ n: count() }).from(optionOrders).where(where),
  ]);
  return { items: rows.map((r) => toOptionView(r.order, r.tick)), total: total?.n ?? 0 };
}

/** One of the user's own orders; another user's id is not found. */
export async function getOptionOrder(db: DbOrTx, userId: number, id: number): Promise<TOptionOrderView> {
  const [row] = await db
    .select({ order: optionOrders, tick: settlementTick })
    .from(optionOrders)
    .leftJoin(optionTicks, eq(optionTicks.id, optionOrders.settlementTickId))
    .where(and(eq(optionOrders.id, id), eq(optionOrders.userId, userId)));
  if (!row) {
    throw new AppError("ORDER_NOT_FOUND", {}, "id");
  }
  return toOptionView(row.order, row.tick);
}

/**
 * The recorded ticks within a minute either side of one of the user's own orders' settlement tick
 * (or of its expiry, while it has none: open, or void for want of a price), with their provenance.
 * Another user's order id is not found.
 */
export async function optionOrderTicks(
  db: DbOrTx,
  userId: number,
  id: number,
): Promise<{ order_id: number; settlement_tick_id: number | null; ticks: TRecordedTick[] }> {
  const [row] = await db
    .select({
      symbol: optionOrders.symbol,
      settlementTickId: optionOrders.settlementTickId,
      settlementTickTime: optionOrders.settlementTickTime,
      expiresAt: optionOrders.expiresAt,
    })
    .from(optionOrders)
    .where(and(eq(optionOrders.id, id), eq(optionOrders.userId, userId)));
  if (!row) {
    throw new AppError("ORDER_NOT_FOUND", {}, "id");
  }
  const ticks = await optionTicksAround(db, row.symbol, row.settlementTickTime ?? row.expiresAt);
  return { order_id: id, settlement_tick_id: row.settlementTickId, ticks };
}
