import {
  type Candle,
  type CandlePeriod,
  nextPeriodStart,
  periodStart,
  ROLLUP_SOURCE,
} from "@northstar/shared/markets";
import { MoneyDecimal } from "@northstar/shared/money";
import { and, desc, eq, lt, sql } from "drizzle-orm";
import type { DbOrTx } from "../db/client.ts";
import { candles } from "./markets.table.ts";

const plain = (value: string) => new MoneyDecimal(value).toFixed();
/** One array parameter (drizzle would otherwise expand a JS array into a list of parameters). */
const array = (values: string[]) => sql.param(values);

/** Writes candles of one period (insert or replace), in batches of one statement each. */
export async function writeCandles(
  db: DbOrTx,
  rows: { symbol: string; period: CandlePeriod; candle: Candle }[],
): Promise<void> {
  const BATCH = 5000;
  for (let i = 0; i < rows.length; i += BATCH) {
    const batch = rows.slice(i, i + BATCH);
    // unnest keeps it one statement with seven array parameters, whatever the batch size.
    await db.execute(sql`
      insert into candles (symbol, period, time, open, high, low, close, volume)
      select * from unnest(
        ${array(batch.map((r) => r.symbol))}::text[], ${array(batch.map((r) => r.period))}::text[],
        ${array(batch.map((r) => new Date(r.candle.time).toISOString()))}::timestamptz[],
        ${array(batch.map((r) => r.candle.open))}::numeric[], ${array(batch.map((r) => r.candle.high))}::numeric[],
        ${array(batch.map((r) => r.candle.low))}::numeric[], ${array(batch.map((r) => r.candle.close))}::numeric[],
        ${array(batch.map((r) => r.candle.volume))}::numeric[])
      on conflict (symbol, period, time) do update set open = excluded.open, high = excluded.high,
        low = excluded.low, close = excluded.close, volume = excluded.volume`);
  }
}

/** SQL for the start of a candle's bucket of `period`, in UTC (weeks start on Monday). */
function bucketSql(period: CandlePeriod) {
  switch (period) {
    case "5m":
    case "15m":
    case "4h": {
      const seconds = { "5m": 300, "15m": 900, "4h": 14400 }[period];
      return sql.raw(`to_timestamp(floor(extract(epoch from time) / ${seconds}) * ${seconds})`);
    }
    case "1h":
      return sql.raw(`date_trunc('hour', time, 'UTC')`);
    case "1d":
      return sql.raw(`date_trunc('day', time, 'UTC')`);
    case "1w":
      return sql.raw(`date_trunc('week', time, 'UTC')`);
    case "1M":
      return sql.raw(`date_trunc('month', time, 'UTC')`);
    case "1y":
      return sql.raw(`date_trunc('year', time, 'UTC')`);
    default:
      throw new Error(`period ${period} is not rolled up`);
  }
}

/**
 * Recomputes the candles of `period` whose buckets overlap [from, to] from the candles of the shorter
 * period they roll up from, for all symbols or the given ones. Recomputing (not adding) makes it
 * idempotent: running it twice, or after a restart, gives the same candles.
 */
export async function rollUpCandles(
  db: DbOrTx,
  period: Exclude<CandlePeriod, "1m">,
  from: number,
  to: number,
  symbols?: string[],
): Promise<void> {
  const start = new Date(periodStart(period, from)).toISOString();
  const end = new Date(nextPeriodStart(period, periodStart(period, to))).toISOString();
  const source = ROLLUP_SOURCE[period];
  const onlySymbols = symbols ? sql`and symbol = any(${array(symbols)}::text[])` : sql``;
  await db.execute(sql`
    insert into candles (symbol, period, time, open, high, low, close, volume)
    select symbol, ${period}, bucket, (array_agg(open order by time))[1], max(high), min(low),
      (array_agg(close order by time desc))[1], sum(volume)
    from (select *, ${bucketSql(period)} as bucket from candles
          where period = ${source} and time >= ${start}::timestamptz and time < ${end}::timestamptz ${onlySymbols}) s
    group by symbol, bucket
    on conflict (symbol, period, time) do update set open = excluded.open, high = excluded.high,
      low = excluded.low, close = excluded.close, volume = excluded.volume`);
}

/** Rolls every longer period up from 1-minute candles over [from, to], shortest first. */
export async function rollUpAll(db: DbOrTx, from: number, to: number, symbols?: string[]): Promise<void> {
  for (const period of Object.keys(ROLLUP_SOURCE) as Exclude<CandlePeriod, "1m">[]) {
    await rollUpCandles(db, period, from, to, symbols);
  }
}

/** The latest `limit` candles of a symbol and period before `before` (ms), oldest first. */
export async function getCandles(
  db: DbOrTx,
  symbol: string,
  period: CandlePeriod,
  options: { limit?: number; before?: number } = {},
): Promise<Candle[]> {
  const limit = Math.min(Math.max(options.limit ?? 300, 1), 1000);
  const rows = await db
    .select()
    .from(candles)
    .where(
      and(
        eq(candles.symbol, symbol),
        eq(candles.period, period),
        options.before !== undefined ? lt(candles.time, new Date(options.before)) : undefined,
      ),
    )
    .orderBy(desc(candles.time))
    .limit(limit);
  return rows.reverse().map((r) => ({
    time: r.time.getTime(),
    open: plain(r.open),
    high: plain(r.high),
    low: plain(r.low),
    close: plain(r.close),
    volume: plain(r.volume),
  }));
}

/**
 * Instruments that already have candles of any period (the others need a history seed). A market
 * that was closed throughout the minute section has hours and days but no minutes, and must not be
 * seeded again. One index probe per instrument.
 */
export async function symbolsWithHistory(db: DbOrTx): Promise<Set<string>> {
  const rows = await db.execute<{ symbol: string }>(
    sql`select i.symbol from instruments i where exists (select 1 from candles c where c.symbol = i.symbol)`,
  );
  return new Set(rows.rows.map((r) => r.symbol));
}

/** The latest stored candle of every period for each symbol (one index lookup per pair). */
export async function latestCandles(
  db: DbOrTx,
  symbols: string[],
  periods: readonly CandlePeriod[],
): Promise<Map<string, Map<CandlePeriod, Candle>>> {
  const rows = await db.execute<{
    symbol: string;
    period: CandlePeriod;
    time: string;
    open: string;
    high: string;
    low: string;
    close: string;
    volume: string;
  }>(sql`
    select s.symbol, p.period, c.time, c.open, c.high, c.low, c.close, c.volume
    from unnest(${array(symbols)}::text[]) s(symbol)
    cross join unnest(${array([...periods])}::text[]) p(period)
    cross join lateral (
      select time, open, high, low, close, volume from candles
      where candles.symbol = s.symbol and candles.period = p.period order by time desc limit 1
    ) c`);
  const result = new Map<string, Map<CandlePeriod, Candle>>();
  for (const r of rows.rows) {
    let bySymbol = result.get(r.symbol);
    if (!bySymbol) {
      bySymbol = new Map();
      result.set(r.symbol, bySymbol);
    }
    bySymbol.set(r.period, {
      time: new Date(r.time).getTime(),
      open: plain(r.open),
      high: plain(r.high),
      low: plain(r.low),
      close: plain(r.close),
      volume: plain(r.volume),
    });
  }
  return result;
}
