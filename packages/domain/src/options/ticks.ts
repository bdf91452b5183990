import { and, asc, desc, eq, gte, lte, sql } from "drizzle-orm";
import type { DbOrTx } from "../db/client.ts";
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

/** Deletes ticks older than `before` that no open order can still need; returns how many. */
export async function pruneTicks(db: DbOrTx, before: Date): Promise<number> {
  const deleted = await db.execute(sql`
    delete from option_ticks t where t.time < ${before.toISOString()}::timestamptz
      and not exists (select 1 from option_orders o where o.status = 'open' and o.symbol = t.symbol)`);
  return deleted.rowCount ?? 0;
}
