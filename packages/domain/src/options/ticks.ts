import type { TRecordedTick } from "@northstar/shared/contracts/markets";
import { and, asc, desc, eq, gte, lte, sql } from "drizzle-orm";
import type { DbOrTx } from "../db/client.ts";
import {
  type ProvenancedTick,
  provenanceColumns,
  TICKS_AROUND_LIMIT,
  TICKS_AROUND_MS,
  toRecordedTick,
} from "../markets/index.ts";
import { getPolicy } from "../policy/index.ts";
import { optionTicks } from "./options.table.ts";

export interface RecordedTick {
  id: number;
  symbol: string;
  price: string;
  time: Date;
}

/**
 * Stores feed ticks as received, with their provenance (one statement for the batch); returns their
 * rows. The recorder always passes provenance; a tick without it (a test's fixed price) is stored
 * without source fields.
 */
export async function recordTicks(
  db: DbOrTx,
  ticks: ({ symbol: string; price: string; time: number } | ProvenancedTick)[],
): Promise<RecordedTick[]> {
  if (ticks.length === 0) {
    return [];
  }
  return db
    .insert(optionTicks)
    .values(
      ticks.map((t) => ({
        symbol: t.symbol,
        price: t.price,
        time: new Date(t.time),
        ...("source" in t ? provenanceColumns(t) : {}),
      })),
    )
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

const recordedColumns = {
  id: optionTicks.id,
  symbol: optionTicks.symbol,
  price: optionTicks.price,
  time: optionTicks.time,
  source: optionTicks.source,
  sourceSymbol: optionTicks.sourceSymbol,
  sourceTime: optionTicks.sourceTime,
  sourceId: optionTicks.sourceId,
  receivedAt: optionTicks.receivedAt,
};

/** One recorded tick with its provenance, or null when it is gone. */
export async function optionTickById(db: DbOrTx, id: number): Promise<TRecordedTick | null> {
  const [row] = await db.select(recordedColumns).from(optionTicks).where(eq(optionTicks.id, id));
  return row ? toRecordedTick(row) : null;
}

/** The recorded ticks of `symbol` within a minute either side of `at`, in time order. */
export async function optionTicksAround(db: DbOrTx, symbol: string, at: Date): Promise<TRecordedTick[]> {
  const rows = await db
    .select(recordedColumns)
    .from(optionTicks)
    .where(
      and(
        eq(optionTicks.symbol, symbol),
        gte(optionTicks.time, new Date(at.getTime() - TICKS_AROUND_MS)),
        lte(optionTicks.time, new Date(at.getTime() + TICKS_AROUND_MS)),
      ),
    )
    .orderBy(asc(optionTicks.time), asc(optionTicks.id))
    .limit(TICKS_AROUND_LIMIT);
  return rows.map(toRecordedTick);
}
