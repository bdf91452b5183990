import { and, asc, desc, eq, gte, lte, sql } from "drizzle-orm";
import type { DbOrTx } from "../db/client.ts";
import { getPolicy } from "../policy/index.ts";
import { optionTicks } from "./options.table.ts";

export interface RecordedTick {
  id: number;
  symbol: string;
  price: string;
  time: Date;
}

/** Stores feed ticks as received (one statement for the batch); returns their rows. */
export async function recordTicks(
  db: DbOrTx,
  ticks: { symbol: string; price: string; time: number }[],
): Promise<RecordedTick[]> {
  if (ticks.length === 0) {
    return [];
  }
  return db
    .insert(optionTicks)
    .values(ticks.map((t) => ({ symbol: t.symbol, price: t.price, time: new Date(t.time) })))
    .returning({
      id: optionTicks.id,
      symbol: optionTicks.symbol,
      price: optionTicks.price,
      time: optionTicks.time,
    });
}

/** The tick current at `at`: the latest recorded one whose time is not after it. */
export async function currentTick(db: DbOrTx, symbol: string, at: Date): Promise<RecordedTick | null> {
  const [row] = await db
    .select({
      id: optionTicks.id,
      symbol: optionTicks.symbol,
      price: optionTicks.price,
      time: optionTicks.time,
    })
    .from(optionTicks)
    .where(and(eq(optionTicks.symbol, symbol), lte(optionTicks.time, at)))
    .orderBy(desc(optionTicks.time), desc(optionTicks.id))
    .limit(1);
  return row ?? null;
}

/** The first recorded tick at or after `at` (ties in time: the first recorded), or null while none exists. */
export async function firstTickAtOrAfter(db: DbOrTx, symbol: string, at: Date): Promise<RecordedTick | null> {
  const [row] = await db
    .select({
      id: optionTicks.id,
      symbol: optionTicks.symbol,
      price: optionTicks.price,
      time: optionTicks.time,
    })
    .from(optionTicks)
    .where(and(eq(optionTicks.symbol, symbol), gte(optionTicks.time, at)))
    .orderBy(asc(optionTicks.time), asc(optionTicks.id))
    .limit(1);
  return row ?? null;
}

/**
 * Deletes ticks recorded before `before` that nothing needs: not an order's purchase or settlement
 * tick (the delivery record points at them), and not at or after the expiry of an open order of the
 * same symbol (it may settle on one). Returns how many went.
 */
export async function pruneTicks(db: DbOrTx, before: Date): Promise<number> {
  const deleted = await db.execute(sql`
    delete from option_ticks t
    where t.time < ${before.toISOString()}::timestamptz
      and t.id not in (
        select purchase_tick_id from option_orders
        union all
        select settlement_tick_id from option_orders where settlement_tick_id is not null)
      and not exists (
        select 1 from option_orders o
        where o.status = 'open' and o.symbol = t.symbol and o.expires_at <= t.time)`);
  return deleted.rowCount ?? 0;
}

/** Deletes the ticks older than the policy's retention (`options.tickRetentionHours`) that nothing needs. */
export async function pruneOldTicks(db: DbOrTx, now: Date): Promise<number> {
  const hours = await getPolicy(db, "options.tickRetentionHours");
  return pruneTicks(db, new Date(now.getTime() - hours * 3_600_000));
}
