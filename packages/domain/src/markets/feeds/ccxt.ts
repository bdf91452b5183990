import type { Candle } from "@northstar/shared/markets";
import { MoneyDecimal } from "@northstar/shared/money";
import { normaliseDecimal, roundToTick } from "./grid.ts";
import { emptySeed, HISTORY_PERIOD_MS, historyRanges } from "./history.ts";
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
 * Live crypto prices through ccxt. The mapping from ccxt's unified payloads to ticks and candles is pure
 * and tested on recorded payloads; the adapter talks to any object with the few methods below, which a
 * real ccxt exchange has (createCcxtExchange checks that at compile time) and a test fake implements.
 */

/** ccxt's unified ticker, the fields we read. */
export interface CcxtTicker {
  symbol?: string | undefined;
  last?: number | undefined;
  timestamp?: number | undefined;
  info?: unknown;
}

/** ccxt's unified trade, the fields we read. */
export interface CcxtTrade {
  id?: string | undefined;
  price?: number | undefined;
  amount?: number | undefined;
  timestamp?: number | undefined;
  side?: string | undefined;
  info?: unknown;
}

/** `[ms, open, high, low, close, volume]`: ccxt's numbers, or an exchange's raw strings (Binance klines). */
export type CcxtOhlcv = readonly (number | string | undefined)[];

export interface CcxtExchange {
  readonly id: string;
  readonly markets?: Record<string, unknown> | undefined;
  loadMarkets(): Promise<unknown>;
  fetchTickers(symbols?: string[]): Promise<Record<string, CcxtTicker>>;
  fetchOHLCV(symbol: string, timeframe?: string, since?: number, limit?: number): Promise<CcxtOhlcv[]>;
  fetchTrades(symbol: string, since?: number, limit?: number): Promise<CcxtTrade[]>;
}

/** Quote currencies tried, longest first, when an instrument has no base/quote to build "BASE/QUOTE". */
const QUOTES = ["FDUSD", "USDT", "USDC", "BUSD", "TUSD", "EUR", "USD", "BTC", "ETH", "BNB", "TRY", "GBP"];

/** Our symbol as ccxt's unified spot symbol: the catalogue's mapping, else "BTCUSDT" → "BTC/USDT". */
export function toCcxtSymbol(
  instrument: Pick<FeedInstrument, "symbol" | "base" | "quote" | "feedSource" | "sourceSymbol">,
): string {
  if (instrument.feedSource === "ccxt" && instrument.sourceSymbol) {
    return instrument.sourceSymbol;
  }
  if (instrument.base && instrument.quote) {
    return `${instrument.base}/${instrument.quote}`;
  }
  const quote = QUOTES.find((q) => instrument.symbol.endsWith(q) && instrument.symbol.length > q.length);
  if (!quote) {
    throw new Error(`ccxt: cannot tell the quote currency of ${instrument.symbol}`);
  }
  return `${instrument.symbol.slice(0, -quote.length)}/${quote}`;
}

/** ccxt's unified symbol as ours: "BTC/USDT" → "BTCUSDT" (a derivative's ":SETTLE" suffix dropped). */
export function fromCcxtSymbol(symbol: string): string {
  return (symbol.split(":")[0] ?? symbol).replace("/", "");
}

/**
 * A decimal from a ccxt value. ccxt parses the exchange's decimal strings into JS numbers; String() of a
 * number is the shortest string that reads back as the same double, and for a decimal of up to 15
 * significant digits (every exchange price) that is the original decimal, so no float noise comes back.
 * Where the raw exchange payload (`info`) has the same value as a string, that string is used as is.
 */
export function ccxtDecimal(value: number | string | undefined, raw?: unknown): MoneyDecimal | null {
  if (value === undefined || value === null || value === "") {
    return null;
  }
  const parsed = new MoneyDecimal(typeof value === "string" ? value : String(value));
  if (!parsed.isFinite()) {
    return null;
  }
  if (typeof raw === "string" && raw !== "") {
    const exact = new MoneyDecimal(raw);
    if (exact.eq(parsed) || (typeof value === "number" && Number(raw) === value)) {
      return exact;
    }
  }
  return parsed;
}

/** The first string field of a raw payload among `keys` (exchanges name them differently). */
function rawField(info: unknown, keys: readonly string[]): string | undefined {
  if (!info || typeof info !== "object") {
    return undefined;
  }
  for (const key of keys) {
    const value = (info as Record<string, unknown>)[key];
    if (typeof value === "string") {
      return value;
    }
  }
  return undefined;
}

/** Where a ccxt tick comes from: the exchange id and the unified symbol polled. */
export interface CcxtOrigin {
  /** The exchange id, e.g. "binance". */
  source: string;
  /** ccxt's unified symbol, e.g. "BTC/USDT". */
  sourceSymbol: string;
  /** Our receive time, ms. */
  receivedAt: number;
}

/** A raw payload's id field (a number or a string) as a string. */
function rawId(info: unknown, key: string): string | undefined {
  if (!info || typeof info !== "object") {
    return undefined;
  }
  const value = (info as Record<string, unknown>)[key];
  return typeof value === "string" || (typeof value === "number" && Number.isFinite(value))
    ? String(value)
    : undefined;
}

/**
 * A ticker as a tick. A ticker carries a rolling 24-hour volume, not what traded since the last poll,
 * so its tick has volume "0"; the trades source gives real volume. The source time is the ticker's own
 * timestamp; a ticker without one is timed at its receipt. Its id is the last trade's id where the
 * exchange says it (Binance's `lastId`).
 */
export function tickerToTick(
  ticker: CcxtTicker,
  instrument: Pick<FeedInstrument, "symbol" | "tickSize">,
  origin: CcxtOrigin,
): Tick | null {
  const last = ccxtDecimal(ticker.last, rawField(ticker.info, ["lastPrice", "last", "price"]));
  if (!last || last.lte(0)) {
    return null;
  }
  const time = ticker.timestamp ?? origin.receivedAt;
  const sourceId = rawId(ticker.info, "lastId");
  return {
    symbol: instrument.symbol,
    price: roundToTick(last, instrument.tickSize),
    volume: "0",
    time,
    source: origin.source,
    sourceSymbol: origin.sourceSymbol,
    sourceTime: time,
    ...(sourceId === undefined ? {} : { sourceId }),
    receivedAt: origin.receivedAt,
  };
}

/** A trade as a tick: its price on our tick grid, its amount as the volume, its id as the source id. */
export function tradeToTick(
  trade: CcxtTrade,
  instrument: Pick<FeedInstrument, "symbol" | "tickSize">,
  origin: CcxtOrigin,
): Tick | null {
  const price = ccxtDecimal(trade.price, rawField(trade.info, ["p", "price"]));
  const amount = ccxtDecimal(trade.amount, rawField(trade.info, ["q", "qty", "amount", "size"]));
  if (!price || price.lte(0) || trade.timestamp === undefined) {
    return null;
  }
  return {
    symbol: instrument.symbol,
    price: roundToTick(price, instrument.tickSize),
    volume: amount ? normaliseDecimal(amount.abs()) : "0",
    time: trade.timestamp,
    source: origin.source,
    sourceSymbol: origin.sourceSymbol,
    sourceTime: trade.timestamp,
    ...(trade.id === undefined ? {} : { sourceId: trade.id }),
    receivedAt: origin.receivedAt,
  };
}

/**
 * An OHLCV row as a candle, prices rounded to our tick grid (rounding is monotonic, so high and low stay
 * the extremes). Accepts ccxt's numbers or a raw Binance kline, whose first six fields are the same.
 */
export function ohlcvToCandle(row: CcxtOhlcv, tickSize: string): Candle | null {
  const [time, ...values] = row;
  const [open, high, low, close, volume] = values.slice(0, 5).map((v) => ccxtDecimal(v));
  if (time === undefined || !open || !high || !low || !close) {
    return null;
  }
  return {
    time: Number(time),
    open: roundToTick(open, tickSize),
    high: roundToTick(high, tickSize),
    low: roundToTick(low, tickSize),
    close: roundToTick(close, tickSize),
    volume: volume ? normaliseDecimal(volume) : "0",
  };
}

export interface CcxtFeedOptions {
  /** The exchange, or a factory called on first use (createCcxtExchange loads ccxt only then). */
  exchange: CcxtExchange | (() => Promise<CcxtExchange>);
  intervalMs?: number;
  clock?: FeedClock;
  /** No timer: the caller drives the feed with `poll()`. */
  manual?: boolean;
  history?: Partial<HistorySpan>;
  /**
   * "tickers": one fetchTickers call per poll, prices only. "trades": fetchTrades per instrument, one
   * tick per trade with its amount: real volume, one request per instrument per poll.
   */
  source?: "tickers" | "trades";
  onError?: (error: unknown) => void;
}

const OHLCV_LIMIT = 1000;

export class CcxtFeed implements MarketFeed {
  readonly name = "ccxt";
  private readonly intervalMs: number;
  private readonly clock: FeedClock;
  private readonly onError: (error: unknown) => void;
  private exchangePromise: Promise<CcxtExchange> | null = null;
  private instruments: { instrument: FeedInstrument; ccxtSymbol: string }[] = [];
  /** Last emitted ticker per symbol, to skip polls where nothing changed. */
  private readonly lastTicker = new Map<string, string>();
  /** Trades source: per symbol, the newest trade time seen and the ids seen at that time. */
  private readonly tradeCursor = new Map<string, { time: number; ids: Set<string> }>();
  private onTick: ((tick: Tick) => void) | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private running = false;

  constructor(private readonly options: CcxtFeedOptions) {
    this.intervalMs = options.intervalMs ?? 1000;
    this.clock = options.clock ?? systemClock;
    this.onError = options.onError ?? ((error) => console.error("ccxt feed:", error));
  }

  private exchange(): Promise<CcxtExchange> {
    if (!this.exchangePromise) {
      const { exchange } = this.options;
      this.exchangePromise = (typeof exchange === "function" ? exchange() : Promise.resolve(exchange)).then(
        async (ex) => {
          await ex.loadMarkets();
          return ex;
        },
      );
      // A failed load (network down at boot) is retried on the next call instead of being cached.
      this.exchangePromise.catch(() => {
        this.exchangePromise = null;
      });
    }
    return this.exchangePromise;
  }

  /** Whether the exchange lists the market (when it exposes its markets at all). */
  private listed(exchange: CcxtExchange, ccxtSymbol: string): boolean {
    return !exchange.markets || ccxtSymbol in exchange.markets;
  }

  async history(instrument: FeedInstrument, now: number): Promise<HistorySeed> {
    const exchange = await this.exchange();
    const symbol = toCcxtSymbol(instrument);
    const seed = emptySeed();
    if (!this.listed(exchange, symbol)) {
      return seed;
    }
    const ranges = historyRanges(now, this.options.history);
    for (const period of HISTORY_PERIODS) {
      const { from, to } = ranges[period];
      let since = from;
      // Exchanges cap a page (Binance: 1000 candles); page forward until the section is covered.
      for (let page = 0; since < to && page < 100; page++) {
        const rows = await exchange.fetchOHLCV(symbol, period, since, OHLCV_LIMIT);
        let latest = since - 1;
        for (const row of rows) {
          const candle = ohlcvToCandle(row, instrument.tickSize);
          if (!candle) {
            continue;
          }
          latest = Math.max(latest, candle.time);
          if (candle.time >= since && candle.time < to) {
            seed[period].push(candle);
          }
        }
        if (rows.length === 0 || latest < since) {
          break;
        }
        since = latest + HISTORY_PERIOD_MS[period];
      }
    }
    return seed;
  }

  async start(instruments: FeedInstrument[], onTick: (tick: Tick) => void): Promise<void> {
    await this.stop();
    const exchange = await this.exchange();
    this.instruments = instruments
      .map((instrument) => ({ instrument, ccxtSymbol: toCcxtSymbol(instrument) }))
      .filter(({ ccxtSymbol }) => this.listed(exchange, ccxtSymbol));
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

  /** One poll: fetches, emits and returns the new ticks. */
  async poll(): Promise<Tick[]> {
    const exchange = await this.exchange();
    const ticks =
      this.options.source === "trades" ? await this.pollTrades(exchange) : await this.pollTickers(exchange);
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

  private async pollTickers(exchange: CcxtExchange): Promise<Tick[]> {
    if (this.instruments.length === 0) {
      return [];
    }
    const tickers = await exchange.fetchTickers(this.instruments.map((i) => i.ccxtSymbol));
    const now = this.clock();
    const ticks: Tick[] = [];
    for (const { instrument, ccxtSymbol } of this.instruments) {
      const ticker = tickers[ccxtSymbol];
      const tick = ticker
        ? tickerToTick(ticker, instrument, { source: exchange.id, sourceSymbol: ccxtSymbol, receivedAt: now })
        : null;
      if (!tick) {
        continue;
      }
      // A ticker without its own time is keyed by price alone: the same untimed price is not news.
      const key = `${ticker?.timestamp ?? "untimed"}|${tick.price}`;
      if (this.lastTicker.get(tick.symbol) === key) {
        continue;
      }
      this.lastTicker.set(tick.symbol, key);
      ticks.push(tick);
    }
    return ticks;
  }

  private async pollTrades(exchange: CcxtExchange): Promise<Tick[]> {
    const ticks: Tick[] = [];
    for (const { instrument, ccxtSymbol } of this.instruments) {
      const cursor = this.tradeCursor.get(instrument.symbol);
      const trades = await exchange.fetchTrades(ccxtSymbol, cursor?.time, OHLCV_LIMIT);
      const origin = { source: exchange.id, sourceSymbol: ccxtSymbol, receivedAt: this.clock() };
      const sorted = trades
        .filter((t) => t.timestamp !== undefined)
        .sort((a, b) => (a.timestamp ?? 0) - (b.timestamp ?? 0));
      const newest = sorted[sorted.length - 1];
      if (!cursor) {
        // First poll: the latest trade gives the current price; older trades are history, not news.
        const tick = newest ? tradeToTick(newest, instrument, origin) : null;
        if (tick && newest?.timestamp !== undefined) {
          ticks.push({ ...tick, volume: "0" });
          const ids = sorted.filter((t) => t.timestamp === newest.timestamp).map((t) => t.id ?? "");
          this.tradeCursor.set(instrument.symbol, { time: newest.timestamp, ids: new Set(ids) });
        }
        continue;
      }
      for (const trade of sorted) {
        const time = trade.timestamp ?? 0;
        if (time < cursor.time || (time === cursor.time && cursor.ids.has(trade.id ?? ""))) {
          continue;
        }
        if (time > cursor.time) {
          cursor.time = time;
          cursor.ids = new Set();
        }
        cursor.ids.add(trade.id ?? "");
        const tick = tradeToTick(trade, instrument, origin);
        if (tick) {
          ticks.push(tick);
        }
      }
    }
    return ticks;
  }
}

/** A real ccxt exchange by id ("binance", "kraken", …), loading the ccxt package only when called. */
export async function createCcxtExchange(id: string): Promise<CcxtExchange> {
  const ccxt = (await import("ccxt")).default;
  if (!ccxt.exchanges.includes(id)) {
    throw new Error(`ccxt: unknown exchange "${id}"`);
  }
  const classes = ccxt as unknown as Record<string, new (config: object) => import("ccxt").Exchange>;
  const ExchangeClass = classes[id];
  if (!ExchangeClass) {
    throw new Error(`ccxt: unknown exchange "${id}"`);
  }
  // Assigning to CcxtExchange makes the compiler check that ccxt's exchange has what the feed uses.
  const exchange: CcxtExchange = new ExchangeClass({ enableRateLimit: true });
  return exchange;
}
