import type { Candle } from "@northstar/shared/markets";
import { ccxtDecimal } from "./ccxt.ts";
import { normaliseDecimal, roundToTick } from "./grid.ts";
import { emptySeed, historyRanges } from "./history.ts";
import {
  type FeedClock,
  type FeedInstrument,
  HISTORY_PERIODS,
  type HistorySeed,
  type HistorySpan,
  type MarketFeed,
  systemClock,
  type Tick,
} from "./types.ts";

/*
 * Forex, stocks, indices, ETFs, metals and energy through Yahoo Finance (the yahoo-finance2 library).
 * The feed polls the quotes of every mapped instrument in one request and emits a tick only when the
 * source's own time of the price (regularMarketTime) has moved on: a quote that has not changed at the
 * source is not news, and is never passed on as a fresh price. Charts are seeded from the chart endpoint.
 * Like ccxt's, the mapping is pure and tested on recorded responses; the adapter talks to any object with
 * the two methods below, which createYahooClient builds from the real library.
 */

/** The source name every Yahoo tick carries. */
export const YAHOO_SOURCE = "yahoo";

/** A quote, the fields we read (the library coerces times to Dates). */
export interface YahooQuote {
  symbol: string;
  regularMarketPrice?: number | undefined;
  regularMarketTime?: Date | number | undefined;
  marketState?: string | undefined;
}

/** One chart row (the library's `quotes`); gaps come as nulls. */
export interface YahooChartRow {
  date: Date;
  open: number | null;
  high: number | null;
  low: number | null;
  close: number | null;
  volume: number | null;
}

export type YahooInterval = "1m" | "1h" | "1d";

export interface YahooClient {
  quote(symbols: string[]): Promise<YahooQuote[]>;
  chart(
    symbol: string,
    query: { period1: Date; period2: Date; interval: YahooInterval },
  ): Promise<{ quotes: YahooChartRow[] }>;
}

/** The Yahoo symbol of an instrument: its catalogue mapping, or null when it has none. */
export function yahooSymbol(instrument: Pick<FeedInstrument, "feedSource" | "sourceSymbol">): string | null {
  return instrument.feedSource === YAHOO_SOURCE && instrument.sourceSymbol ? instrument.sourceSymbol : null;
}

/** A source time as ms: a Date, or seconds since the epoch as Yahoo's raw JSON has it. */
function sourceMs(time: Date | number | undefined): number | null {
  if (time instanceof Date) {
    const ms = time.getTime();
    return Number.isFinite(ms) ? ms : null;
  }
  if (typeof time === "number" && Number.isFinite(time)) {
    return time < 1e12 ? time * 1000 : time;
  }
  return null;
}

/**
 * A quote as a tick, on our tick grid, timed by the source's own time of the price. No price or no
 * source time: no tick (a price without its time cannot be told fresh from stale). A quote carries the
 * day's running volume, not what traded since the last poll, so the tick's volume is "0".
 */
export function quoteToTick(
  quote: YahooQuote,
  instrument: Pick<FeedInstrument, "symbol" | "tickSize">,
  receivedAt: number,
): Tick | null {
  const price = ccxtDecimal(quote.regularMarketPrice);
  const time = sourceMs(quote.regularMarketTime);
  if (!price || price.lte(0) || time === null) {
    return null;
  }
  return {
    symbol: instrument.symbol,
    price: roundToTick(price, instrument.tickSize),
    volume: "0",
    time,
    source: YAHOO_SOURCE,
    sourceSymbol: quote.symbol,
    sourceTime: time,
    receivedAt,
  };
}

/** A chart row as a candle on our grid, or null for a gap (Yahoo sends nulls for missing bars). */
export function chartRowToCandle(row: YahooChartRow, tickSize: string): Candle | null {
  const [open, high, low, close] = [row.open, row.high, row.low, row.close].map((v) =>
    v === null ? null : ccxtDecimal(v),
  );
  if (!open || !high || !low || !close || open.lte(0) || low.lte(0)) {
    return null;
  }
  const volume = row.volume === null ? null : ccxtDecimal(row.volume);
  return {
    time: row.date.getTime(),
    open: roundToTick(open, tickSize),
    high: roundToTick(high, tickSize),
    low: roundToTick(low, tickSize),
    close: roundToTick(close, tickSize),
    volume: volume?.gt(0) ? normaliseDecimal(volume) : "0",
  };
}

export interface YahooFeedOptions {
  /** The client, or a factory called on first use (createYahooClient loads the library only then). */
  client: YahooClient | (() => Promise<YahooClient>);
  /** Time between polls (policy `feeds.yahoo.pollIntervalMs`). */
  intervalMs?: number;
  clock?: FeedClock;
  /** No timer: the caller drives the feed with `poll()`. */
  manual?: boolean;
  history?: Partial<HistorySpan>;
  onError?: (error: unknown) => void;
}

export class YahooFeed implements MarketFeed {
  readonly name = YAHOO_SOURCE;
  private readonly intervalMs: number;
  private readonly clock: FeedClock;
  private readonly onError: (error: unknown) => void;
  private clientPromise: Promise<YahooClient> | null = null;
  /** Instruments by Yahoo symbol (two instruments may share one source symbol). */
  private bySource = new Map<string, FeedInstrument[]>();
  /** Per instrument, the source time of the last tick emitted. */
  private readonly lastSourceTime = new Map<string, number>();
  private onTick: ((tick: Tick) => void) | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private running = false;

  constructor(private readonly options: YahooFeedOptions) {
    this.intervalMs = options.intervalMs ?? 5000;
    this.clock = options.clock ?? systemClock;
    this.onError = options.onError ?? ((error) => console.error("yahoo feed:", error));
  }

  private client(): Promise<YahooClient> {
    if (!this.clientPromise) {
      const { client } = this.options;
      this.clientPromise = typeof client === "function" ? client() : Promise.resolve(client);
      this.clientPromise.catch(() => {
        this.clientPromise = null;
      });
    }
    return this.clientPromise;
  }

  async history(instrument: FeedInstrument, now: number): Promise<HistorySeed> {
    const symbol = yahooSymbol(instrument);
    const seed = emptySeed();
    if (!symbol) {
      return seed;
    }
    const client = await this.client();
    const ranges = historyRanges(now, this.options.history);
    for (const period of HISTORY_PERIODS) {
      const { from, to } = ranges[period];
      if (from >= to) {
        continue;
      }
      const { quotes } = await client.chart(symbol, {
        period1: new Date(from),
        period2: new Date(to),
        interval: period,
      });
      for (const row of quotes) {
        const candle = chartRowToCandle(row, instrument.tickSize);
        if (candle && candle.time >= from && candle.time < to) {
          seed[period].push(candle);
        }
      }
      seed[period].sort((a, b) => a.time - b.time);
    }
    return seed;
  }

  async start(instruments: FeedInstrument[], onTick: (tick: Tick) => void): Promise<void> {
    await this.stop();
    this.bySource = new Map();
    for (const instrument of instruments) {
      const symbol = yahooSymbol(instrument);
      if (symbol) {
        this.bySource.set(symbol, [...(this.bySource.get(symbol) ?? []), instrument]);
      }
    }
    this.onTick = onTick;
    this.running = true;
    if (!this.options.manual) {
      await this.loop();
    }
  }

  async stop(): Promise<void> {
    this.running = false;
    if (this.timer) {
      clearTimeout(this.timer);
    }
    this.timer = null;
    this.onTick = null;
  }

  /** One poll: fetches every mapped quote, emits and returns the ticks whose source time moved on. */
  async poll(): Promise<Tick[]> {
    if (this.bySource.size === 0) {
      return [];
    }
    const client = await this.client();
    const quotes = await client.quote([...this.bySource.keys()]);
    const receivedAt = this.clock();
    const ticks: Tick[] = [];
    for (const quote of quotes) {
      for (const instrument of this.bySource.get(quote.symbol) ?? []) {
        const tick = quoteToTick(quote, instrument, receivedAt);
        const last = this.lastSourceTime.get(instrument.symbol);
        if (!tick || (last !== undefined && tick.sourceTime <= last)) {
          continue;
        }
        this.lastSourceTime.set(instrument.symbol, tick.sourceTime);
        ticks.push(tick);
      }
    }
    for (const tick of ticks) {
      this.onTick?.(tick);
    }
    return ticks;
  }

  /** Polls, then schedules the next poll an interval after this one began (never two at once). */
  private async loop(): Promise<void> {
    const began = this.clock();
    try {
      await this.poll();
    } catch (error) {
      this.onError(error);
    }
    if (!this.running) {
      return;
    }
    const wait = Math.max(0, this.intervalMs - (this.clock() - began));
    this.timer = setTimeout(() => void this.loop(), wait);
  }
}

/**
 * The real library's client. `fetch` replaces the network (tests serve recorded responses through it).
 * The library is ESM and loaded only when called.
 */
export async function createYahooClient(options: { fetch?: typeof fetch } = {}): Promise<YahooClient> {
  const { default: YahooFinance } = await import("yahoo-finance2");
  const yahoo = new YahooFinance({
    suppressNotices: ["yahooSurvey"],
    validation: { logErrors: false },
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  return {
    quote: async (symbols) => (await yahoo.quote(symbols, { return: "array" })) as YahooQuote[],
    chart: async (symbol, query) => {
      const result = await yahoo.chart(symbol, query);
      return { quotes: result.quotes as YahooChartRow[] };
    },
  };
}
