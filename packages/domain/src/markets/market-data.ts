import {
  CANDLE_PERIODS,
  type Candle,
  type CandlePeriod,
  channel,
  hasSpotMarket,
  isMarketOpen,
  type MarketTrade,
  type Ticker,
} from "@northstar/shared/markets";
import { MoneyDecimal } from "@northstar/shared/money";
import type { Redis } from "ioredis";
import type { Db } from "../db/client.ts";
import {
  getCandles,
  latestCandles,
  rollUpCandles,
  symbolsWithHistory,
  writeCandles,
} from "./candle-store.ts";
import { type InstrumentView, loadCatalogue } from "./catalogue.ts";
import { HISTORY_PERIODS, type HistorySeed, type MarketFeed, type Tick } from "./feeds/index.ts";
import { LiveCandles } from "./live-candles.ts";
import { type PlatformVolume, readPlatformVolume } from "./platform-volume.ts";
import { ChannelPublisher } from "./realtime.ts";
import { referenceDepth } from "./reference-depth.ts";
import { TickerWindow } from "./ticker-window.ts";

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 3600_000;
const RECENT_TRADES = 50;
/** How often the platform's own 24h volume is read again for the tickers. */
const PLATFORM_VOLUME_MS = 5000;

interface MarketState {
  instrument: InstrumentView;
  window: TickerWindow;
  live: LiveCandles;
  /** the forming 1-minute candle */
  minute: Candle | null;
  recentTrades: MarketTrade[];
  newTrades: MarketTrade[];
  changed: boolean;
  open: boolean;
  tradeSeq: number;
}

export interface MarketDataOptions {
  db: Db;
  redis: Redis;
  prefix: string;
  feed: MarketFeed;
  log?: (line: string) => void;
  flushIntervalMs?: number;
  now?: () => number;
  /**
   * Markets whose depth and trades come from our own order book (the spot matcher publishes them),
   * not from the feed. Default: every instrument with a spot market.
   */
  ownBook?: (instrument: InstrumentView) => boolean;
}

/**
 * The worker's market data loop. It seeds chart history on first start, takes ticks from the feed,
 * builds 1-minute candles and stores them (rolling every longer period up from them), keeps 24-hour
 * tickers, and once a second publishes what changed: one `tickers` message for all instruments, and
 * per changed instrument its forming candles, depth and trade prints.
 */
export class MarketDataService {
  private readonly states = new Map<string, MarketState>();
  private readonly publisher: ChannelPublisher;
  private timer: ReturnType<typeof setInterval> | null = null;
  private flushing: Promise<void> | null = null;
  private readonly now: () => number;
  private readonly log: (line: string) => void;
  private platformVolume = new Map<string, PlatformVolume>();
  private platformVolumeAt = Number.NEGATIVE_INFINITY;

  constructor(private readonly options: MarketDataOptions) {
    this.publisher = new ChannelPublisher(options.redis, options.prefix);
    this.now = options.now ?? Date.now;
    this.log = options.log ?? (() => {});
  }

  async start(): Promise<void> {
    const now = this.now();
    const instruments = await loadCatalogue(this.options.db);
    const have = await symbolsWithHistory(this.options.db);
    const stored = await latestCandles(
      this.options.db,
      instruments.map((i) => i.symbol),
      CANDLE_PERIODS,
    );
    const seeds = new Map<string, HistorySeed>();
    for (const instrument of instruments) {
      const seed = have.has(instrument.symbol) ? undefined : await this.options.feed.history(instrument, now);
      // Generating history is CPU work; yield between instruments so timers (lease renewal) still run.
      if (seed) {
        await new Promise((resolve) => setImmediate(resolve));
      }
      if (seed) {
        seeds.set(instrument.symbol, seed);
      }
      const minutes = seed
        ? seed["1m"]
        : await getCandles(this.options.db, instrument.symbol, "1m", { limit: 1440 });
      this.states.set(
        instrument.symbol,
        this.newState(instrument, minutes, stored.get(instrument.symbol), now),
      );
    }
    // The feed continues from the last stored close, so a restart does not jump back to the reference.
    const feedInstruments = instruments.map((i) => ({
      ...i,
      lastPrice: this.states.get(i.symbol)?.window.last,
    }));
    await this.options.feed.start(feedInstruments, (tick) => this.onTick(tick));
    // Publish the first full state at once, so screens have prices before the first tick.
    for (const state of this.states.values()) {
      state.changed = true;
    }
    await this.flush();
    this.timer = setInterval(() => void this.flush(), this.options.flushIntervalMs ?? 1000);
    this.log(`market data: ${instruments.length} instruments from the ${this.options.feed.name} feed`);
    // History is written behind the live feed, so prices move from the first second on.
    if (seeds.size > 0) {
      this.seeding = this.storeHistory(seeds, now);
    }
  }

  /** Resolves when the history seeded at start is stored (at once if none was needed). */
  historyStored(): Promise<void> {
    return this.seeding;
  }
  private seeding: Promise<void> = Promise.resolve();

  async stop(): Promise<void> {
    if (this.timer) {
      clearInterval(this.timer);
    }
    this.timer = null;
    await this.options.feed.stop();
    await this.flushing;
    await this.flush();
    await this.seeding;
  }

  onTick(tick: Tick): void {
    const state = this.states.get(tick.symbol);
    if (!state) {
      return;
    }
    const start = Math.floor(tick.time / MINUTE_MS) * MINUTE_MS;
    if (state.minute && state.minute.time !== start) {
      this.pendingMinutes.push({ state, candle: state.minute });
    }
    if (!state.minute || state.minute.time !== start) {
      state.minute = {
        time: start,
        open: tick.price,
        high: tick.price,
        low: tick.price,
        close: tick.price,
        volume: "0",
      };
    }
    const m = state.minute;
    const price = new MoneyDecimal(tick.price);
    if (price.gt(m.high)) {
      m.high = tick.price;
    }
    if (price.lt(m.low)) {
      m.low = tick.price;
    }
    m.close = tick.price;
    m.volume = new MoneyDecimal(m.volume).plus(tick.volume).toFixed();
    const previous = state.window.last;
    state.window.applyTick(tick.price, tick.volume, tick.time);
    state.live.apply(tick.price, tick.volume, tick.time);
    if (new MoneyDecimal(tick.volume).gt(0)) {
      state.newTrades.push({
        id: `${tick.symbol}-${tick.time}-${++state.tradeSeq}`,
        p: tick.price,
        q: tick.volume,
        side: price.lt(previous) ? "sell" : "buy",
        t: tick.time,
      });
    }
    state.changed = true;
  }

  private readonly pendingMinutes: { state: MarketState; candle: Candle }[] = [];

  /** One publishing round; rounds never overlap. */
  flush(): Promise<void> {
    if (this.flushing) {
      return this.flushing;
    }
    this.flushing = this.flushRound()
      .catch((error) =>
        this.log(`market data flush failed: ${error instanceof Error ? error.message : error}`),
      )
      .finally(() => {
        this.flushing = null;
      });
    return this.flushing;
  }

  /** Reads the platform's own 24h volume at most every few seconds; a market whose figure moved is republished. */
  private async refreshPlatformVolume(now: number): Promise<void> {
    if (now - this.platformVolumeAt < PLATFORM_VOLUME_MS) {
      return;
    }
    this.platformVolumeAt = now;
    let fresh: Map<string, PlatformVolume>;
    try {
      fresh = await readPlatformVolume(this.options.db, new Date(now - DAY_MS));
    } catch (error) {
      // Prices are still published; the volume is read again next time.
      this.log(`platform volume not read: ${error instanceof Error ? error.message : error}`);
      return;
    }
    for (const state of this.states.values()) {
      const symbol = state.instrument.symbol;
      if (fresh.get(symbol)?.volume !== this.platformVolume.get(symbol)?.volume) {
        state.changed = true;
      }
    }
    this.platformVolume = fresh;
  }

  private async flushRound(): Promise<void> {
    const now = this.now();
    // Minutes with no tick since they ended close on the clock.
    for (const state of this.states.values()) {
      if (state.minute && now >= state.minute.time + MINUTE_MS) {
        this.pendingMinutes.push({ state, candle: state.minute });
        state.minute = null;
      }
    }
    const closed = this.pendingMinutes.splice(0);
    if (closed.length > 0) {
      const from = Math.min(...closed.map((c) => c.candle.time));
      const to = Math.max(...closed.map((c) => c.candle.time));
      const symbols = [...new Set(closed.map((c) => c.state.instrument.symbol))];
      await this.serialised(async () => {
        await writeCandles(
          this.options.db,
          closed.map(({ state, candle }) => ({
            symbol: state.instrument.symbol,
            period: "1m" as const,
            candle,
          })),
        );
        for (const period of CANDLE_PERIODS) {
          if (period !== "1m") {
            await rollUpCandles(this.options.db, period, from, to, symbols);
          }
        }
        await this.rebaseLive(symbols);
      });
      for (const { state, candle } of closed) {
        state.window.closeMinute(candle);
      }
    }

    await this.refreshPlatformVolume(now);
    const changedTickers: Ticker[] = [];
    const allTickers: Ticker[] = [];
    for (const state of this.states.values()) {
      const open = isMarketOpen(state.instrument.tradingHours, new Date(now));
      if (open !== state.open) {
        state.open = open;
        state.changed = true;
      }
      // The 24h volume and turnover are what was traded on this platform, not what the feed reports
      // for its own venue: a market nobody traded here shows 0.
      const own = this.platformVolume.get(state.instrument.symbol);
      const ticker = {
        ...state.window.ticker(now, open),
        v: new MoneyDecimal(own?.volume ?? 0).toFixed(),
        q: new MoneyDecimal(own?.turnover ?? 0).toDecimalPlaces(2).toFixed(),
      };
      allTickers.push(ticker);
      if (!state.changed) {
        continue;
      }
      changedTickers.push(ticker);
      const { symbol, tickSize, lotSize } = state.instrument;
      for (const period of CANDLE_PERIODS) {
        const candle = state.live.get(period);
        if (candle) {
          this.publisher.publish(channel.kline(symbol, period), candle, candle, { ts: now });
        }
      }
      const ownBook = (this.options.ownBook ?? hasSpotMarket)(state.instrument);
      if (!ownBook) {
        this.publisher.publish(
          channel.depth(symbol),
          referenceDepth(symbol, ticker.p, tickSize, lotSize),
          undefined,
          {
            ts: now,
          },
        );
      }
      if (ownBook) {
        state.newTrades.length = 0;
      } else if (state.newTrades.length > 0) {
        const fresh = state.newTrades.splice(0).reverse();
        state.recentTrades = [...fresh, ...state.recentTrades].slice(0, RECENT_TRADES);
        this.publisher.publish(channel.trades(symbol), fresh, state.recentTrades, { ts: now });
      }
      state.changed = false;
    }
    if (changedTickers.length > 0) {
      this.publisher.publish(channel.tickers(), changedTickers, allTickers, { ts: now });
    }
    await this.publisher.flush();
  }

  /**
   * Stores the history seeds, then rolls every longer period up from them over their whole range.
   * The seed's sections are aligned (hours start on a day, minutes on an hour), so no seeded hour or
   * day is replaced by a partial one; periods never seeded (4h, week, month, year) take what exists.
   */
  private async storeHistory(seeds: Map<string, HistorySeed>, now: number): Promise<void> {
    const started = Date.now();
    try {
      const rows = [...seeds].flatMap(([symbol, seed]) =>
        HISTORY_PERIODS.flatMap((period) => seed[period].map((candle) => ({ symbol, period, candle }))),
      );
      await writeCandles(this.options.db, rows);
      const from = rows.reduce((min, r) => Math.min(min, r.candle.time), Number.POSITIVE_INFINITY);
      const symbols = [...seeds.keys()];
      await this.serialised(async () => {
        for (const period of CANDLE_PERIODS) {
          if (period !== "1m") {
            await rollUpCandles(this.options.db, period, from, now, symbols);
          }
        }
        await this.rebaseLive(symbols);
      });
      this.log(
        `market data: stored ${rows.length} candles of history for ${seeds.size} instruments in ${Date.now() - started} ms`,
      );
    } catch (error) {
      this.log(
        `market data: storing history failed: ${error instanceof Error ? error.message.slice(0, 300) : error}`,
      );
    }
  }

  /** Database work of the publishing loop and of the history writer runs one at a time. */
  private serial: Promise<unknown> = Promise.resolve();
  private serialised<T>(work: () => Promise<T>): Promise<T> {
    const next = this.serial.then(work, work);
    this.serial = next.catch(() => {});
    return next;
  }

  private async rebaseLive(symbols: string[]): Promise<void> {
    const now = this.now();
    const stored = await latestCandles(this.options.db, symbols, CANDLE_PERIODS);
    for (const symbol of symbols) {
      const state = this.states.get(symbol);
      state?.live.rebase(stored.get(symbol), state.minute, now);
    }
  }

  private newState(
    instrument: InstrumentView,
    minutes: Candle[],
    stored: Map<CandlePeriod, Candle> | undefined,
    now: number,
  ): MarketState {
    const window = new TickerWindow(instrument.symbol, minutes.at(-1)?.close ?? instrument.referencePrice);
    for (const candle of minutes) {
      if (candle.time >= now - 24 * 3600_000) {
        window.addMinute(candle);
      }
    }
    const live = new LiveCandles(CANDLE_PERIODS);
    live.rebase(stored, null, now);
    return {
      instrument,
      window,
      live,
      minute: null,
      recentTrades: [],
      newTrades: [],
      changed: true,
      open: isMarketOpen(instrument.tradingHours, new Date(now)),
      tradeSeq: 0,
    };
  }
}
