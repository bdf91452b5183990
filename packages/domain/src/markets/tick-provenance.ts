import type { TPriceSource, TRecordedTick } from "@northstar/shared/contracts/markets";
import { MoneyDecimal } from "@northstar/shared/money";
import type { Tick, TickProvenance } from "./feeds/types.ts";

/**
 * A feed tick as the recorders take it: the price and where it came from (the source, the source's
 * own symbol and time of the price, its trade or quote id where it has one, and when the platform
 * received it). Each recorded tick keeps it, so every settlement, fill, liquidation and overnight
 * charge can name the price it used.
 */
export type ProvenancedTick = Pick<Tick, "symbol" | "price" | "time"> & TickProvenance;

/** The provenance columns of a recorded tick (option_ticks and contract_ticks share them). */
export function provenanceColumns(tick: ProvenancedTick) {
  return {
    source: tick.source,
    sourceSymbol: tick.sourceSymbol,
    sourceTime: new Date(tick.sourceTime),
    sourceId: tick.sourceId ?? null,
    receivedAt: new Date(tick.receivedAt),
  };
}

/** A recorded tick with its provenance, as a row of either tick store reads. */
export interface RecordedTickRow {
  id: number;
  symbol: string;
  price: string;
  time: Date;
  source: string | null;
  sourceSymbol: string | null;
  sourceTime: Date | null;
  sourceId: string | null;
  receivedAt: Date | null;
}

export function toRecordedTick(row: RecordedTickRow): TRecordedTick {
  return {
    id: row.id,
    symbol: row.symbol,
    price: new MoneyDecimal(row.price).toFixed(),
    time: row.time.toISOString(),
    source: row.source,
    source_symbol: row.sourceSymbol,
    source_time: row.sourceTime?.toISOString() ?? null,
    source_id: row.sourceId,
    received_at: row.receivedAt?.toISOString() ?? null,
  };
}

/** How far around a settlement's tick the downloadable ticks reach, each side. */
export const TICKS_AROUND_MS = 60_000;
/** At most this many ticks are returned around a settlement (the recorders keep about 5 a second). */
export const TICKS_AROUND_LIMIT = 2000;

/** The columns of a settlement's tick a view shows beside its price. */
export interface SourceRow {
  id: number;
  price: string;
  time: Date;
  source: string | null;
  sourceTime: Date | null;
}

export function toPriceSource(tick: SourceRow | null): TPriceSource | null {
  return tick
    ? {
        id: tick.id,
        price: new MoneyDecimal(tick.price).toFixed(),
        time: tick.time.toISOString(),
        source: tick.source,
        source_time: tick.sourceTime?.toISOString() ?? null,
      }
    : null;
}
