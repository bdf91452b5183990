import { type Candle, type CandlePeriod, nextPeriodStart, periodStart } from "@northstar/shared/markets";
import { MoneyDecimal } from "@northstar/shared/money";

/** A candle of one symbol, as the builder hands it out. */
export interface SymbolCandle {
  symbol: string;
  candle: Candle;
}

/** The tick fields the builder reads (a feed Tick satisfies it). */
export interface PriceTick {
  symbol: string;
  price: string;
  volume: string;
  time: number;
}

/** A candle being built: decimals while open, so comparisons and sums stay exact. */
interface OpenCandle {
  time: number;
  open: MoneyDecimal;
  high: MoneyDecimal;
  low: MoneyDecimal;
  close: MoneyDecimal;
  volume: MoneyDecimal;
}

const toCandle = (c: OpenCandle): Candle => ({
  time: c.time,
  open: c.open.toFixed(),
  high: c.high.toFixed(),
  low: c.low.toFixed(),
  close: c.close.toFixed(),
  volume: c.volume.toFixed(),
});

/**
 * Rolls sorted candles of a shorter period up into `period` buckets (UTC, weeks from Monday): open of
 * the first, close of the last, highest high, lowest low, summed volume. Output strings are normalised
 * with `toFixed()` ("46506.00" → "46506"), the form the candle store reads back.
 */
export function aggregateCandles(candles: readonly Candle[], period: CandlePeriod): Candle[] {
  const out: Candle[] = [];
  let current: OpenCandle | null = null;
  for (const c of candles) {
    const bucket = periodStart(period, c.time);
    if (current && bucket < current.time) {
      throw new Error(`aggregateCandles: input not sorted at ${new Date(c.time).toISOString()}`);
    }
    if (!current || bucket !== current.time) {
      if (current) {
        out.push(toCandle(current));
      }
      current = {
        time: bucket,
        open: new MoneyDecimal(c.open),
        high: new MoneyDecimal(c.high),
        low: new MoneyDecimal(c.low),
        close: new MoneyDecimal(c.close),
        volume: new MoneyDecimal(c.volume),
      };
      continue;
    }
    const high = new MoneyDecimal(c.high);
    const low = new MoneyDecimal(c.low);
    if (high.gt(current.high)) {
      current.high = high;
    }
    if (low.lt(current.low)) {
      current.low = low;
    }
    current.close = new MoneyDecimal(c.close);
    current.volume = current.volume.plus(c.volume);
  }
  if (current) {
    out.push(toCandle(current));
  }
  return out;
}

/**
 * Builds 1-minute candles from ticks of any number of symbols. A symbol's candle closes when a tick of
 * a later minute arrives, or when `closeBefore` is called with a time past its minute (the worker calls
 * it on a timer so that quiet markets still get their candle written). Ticks older than a symbol's
 * open candle arrived too late to change a written candle and are dropped (counted in `dropped`).
 */
export class CandleBuilder {
  private readonly open = new Map<string, OpenCandle>();
  /** Start of each symbol's last closed minute: a later tick for it must not reopen a written candle. */
  private readonly closed = new Map<string, number>();
  dropped = 0;

  /** Adds a tick; returns the candle it closed, if it starts a new minute for its symbol. */
  add(tick: PriceTick): SymbolCandle[] {
    const minute = periodStart("1m", tick.time);
    const price = new MoneyDecimal(tick.price);
    const current = this.open.get(tick.symbol);
    if ((current && minute < current.time) || minute <= (this.closed.get(tick.symbol) ?? -Infinity)) {
      this.dropped++;
      return [];
    }
    if (current && minute === current.time) {
      if (price.gt(current.high)) {
        current.high = price;
      }
      if (price.lt(current.low)) {
        current.low = price;
      }
      current.close = price;
      current.volume = current.volume.plus(tick.volume);
      return [];
    }
    this.open.set(tick.symbol, {
      time: minute,
      open: price,
      high: price,
      low: price,
      close: price,
      volume: new MoneyDecimal(tick.volume),
    });
    if (!current) {
      return [];
    }
    this.closed.set(tick.symbol, current.time);
    return [{ symbol: tick.symbol, candle: toCandle(current) }];
  }

  /** Closes and returns every candle whose minute ended at or before `time`. */
  closeBefore(time: number): SymbolCandle[] {
    const closed: SymbolCandle[] = [];
    for (const [symbol, c] of this.open) {
      if (nextPeriodStart("1m", c.time) <= time) {
        closed.push({ symbol, candle: toCandle(c) });
        this.open.delete(symbol);
        this.closed.set(symbol, c.time);
      }
    }
    return closed;
  }

  /** The candle still being built for `symbol`, if any. */
  current(symbol: string): Candle | undefined {
    const c = this.open.get(symbol);
    return c ? toCandle(c) : undefined;
  }

  /** Closes and returns every open candle (on shutdown, or at the end of a replay). */
  flush(): SymbolCandle[] {
    const closed = [...this.open].map(([symbol, c]) => ({ symbol, candle: toCandle(c) }));
    for (const { symbol, candle } of closed) {
      this.closed.set(symbol, candle.time);
    }
    this.open.clear();
    return closed;
  }
}
