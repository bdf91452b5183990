import type { Candle, InstrumentCategory, TradingHours } from "@northstar/shared/markets";
import { isMarketOpen } from "@northstar/shared/markets";
import { fromTicks } from "./grid.ts";
import { emptySeed, HISTORY_PERIOD_MS, historyRanges } from "./history.ts";
import { Random } from "./random.ts";
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

export interface SimulatorOptions {
  /** Same seed, same instruments and same step times → identical ticks and history. */
  seed?: string | number;
  /** Time between ticks of one instrument. */
  intervalMs?: number;
  clock?: FeedClock;
  /** No timer: the caller drives the feed with `step(now)` (tests, backfills). */
  manual?: boolean;
  history?: Partial<HistorySpan>;
  /** Half-life, in days of trading time, of the pull back towards the reference price; 0 turns it off. */
  meanReversionDays?: number;
}

const MINUTE = 60_000;
const DAY = 1440 * MINUTE;
const YEAR = 365.25 * DAY;
const WEEK = 7 * DAY;

/**
 * Typical turnover per trading minute, in quote currency, by asset class. Only the order of magnitude
 * matters: it makes volume bars look like a market's rather than like noise around 1.
 */
const NOTIONAL_PER_MINUTE: Record<InstrumentCategory, number> = {
  crypto: 200_000,
  forex: 2_000_000,
  stocks: 300_000,
  indices: 100_000,
  etfs: 500_000,
  metals: 200_000,
  energy: 200_000,
};

/** Random-walk parameters of one instrument, derived once from its catalogue row. */
interface Model {
  instrument: FeedInstrument;
  tick: number;
  lot: number;
  sigma: number;
  /** Trading time in a year, ms: annualised volatility is per year of trading, not of calendar. */
  openMsPerYear: number;
  alwaysOpen: boolean;
  /** Cache key of the trading hours: instruments with the same schedule share open/closed answers. */
  hoursKey: string;
  /** Median base volume per trading minute. */
  minuteVolume: number;
}

interface LiveState {
  model: Model;
  random: Random;
  /** Log of the current price; floats are fine here, emitted prices are whole ticks. */
  logPrice: number;
  lastTime?: number;
}

/**
 * Offline market: a seeded geometric random walk per instrument with fat-tailed (Student-t) returns,
 * the instrument's own annualised volatility and a gentle pull towards its reference price, ticking only
 * while its market is open. History is the same walk generated backwards from the reference price, so
 * the charts end where the live walk starts.
 */
export class SimulatorFeed implements MarketFeed {
  readonly name = "simulator";
  private readonly seed: string;
  private readonly intervalMs: number;
  private readonly clock: FeedClock;
  private readonly theta: number;
  private readonly states = new Map<string, LiveState>();
  private readonly openCache = new Map<string, Map<number, boolean>>();
  private active: LiveState[] = [];
  private onTick: ((tick: Tick) => void) | null = null;
  private timer: ReturnType<typeof setInterval> | null = null;

  constructor(private readonly options: SimulatorOptions = {}) {
    this.seed = String(options.seed ?? "northstar");
    this.intervalMs = options.intervalMs ?? 1000;
    this.clock = options.clock ?? systemClock;
    const halfLifeDays = options.meanReversionDays ?? 30;
    this.theta = halfLifeDays > 0 ? Math.LN2 / ((halfLifeDays * DAY) / YEAR) : 0;
  }

  async start(instruments: FeedInstrument[], onTick: (tick: Tick) => void): Promise<void> {
    await this.stop();
    this.onTick = onTick;
    this.active = instruments.map((instrument) => {
      const existing = this.states.get(instrument.symbol);
      if (existing) {
        existing.model = this.model(instrument);
        return existing;
      }
      const state: LiveState = {
        model: this.model(instrument),
        random: new Random(`${this.seed}:${instrument.symbol}:live`),
        logPrice: Math.log(Number(instrument.lastPrice ?? instrument.referencePrice)),
      };
      this.states.set(instrument.symbol, state);
      return state;
    });
    if (!this.options.manual) {
      this.step(this.clock());
      this.timer = setInterval(() => this.step(this.clock()), this.intervalMs);
    }
  }

  async stop(): Promise<void> {
    if (this.timer) {
      clearInterval(this.timer);
    }
    this.timer = null;
    this.onTick = null;
  }

  /** Advances every open market to `now`, emits one tick each and returns them. */
  step(now: number): Tick[] {
    const ticks: Tick[] = [];
    for (const state of this.active) {
      const { model } = state;
      if (!isMarketOpen(model.instrument.tradingHours, new Date(now))) {
        continue;
      }
      const elapsed = state.lastTime === undefined ? this.intervalMs : now - state.lastTime;
      if (elapsed <= 0) {
        continue;
      }
      state.lastTime = now;
      const z = state.random.fatTailed();
      const sigma = this.stepSigma(model, elapsed);
      const reference = Math.log(Number(model.instrument.referencePrice));
      const pull =
        -this.theta * (state.logPrice - reference) * (Math.min(elapsed, DAY) / model.openMsPerYear);
      state.logPrice += sigma * z + pull;
      const priceTicks = Math.max(1, Math.round(Math.exp(state.logPrice) / model.tick));
      // Busier when the price moves: volume scales with the size of the move, as in real markets.
      const volume =
        state.random.logNormal(model.minuteVolume * (Math.min(elapsed, MINUTE) / MINUTE), 0.9) *
        (0.6 + 0.4 * Math.abs(z));
      const tick: Tick = {
        symbol: model.instrument.symbol,
        price: fromTicks(priceTicks, model.instrument.tickSize),
        volume: fromTicks(Math.round(volume / model.lot), model.instrument.lotSize),
        time: now,
        source: "simulator",
        sourceSymbol: model.instrument.symbol,
        sourceTime: now,
        receivedAt: now,
      };
      ticks.push(tick);
      this.onTick?.(tick);
    }
    return ticks;
  }

  /**
   * Log-return sd over `elapsed` ms. A step much longer than the interval means the market was closed
   * (or the process paused): a closed market reopens with a gap of about half a trading day's move.
   */
  private stepSigma(model: Model, elapsed: number): number {
    if (elapsed <= 5 * this.intervalMs || model.alwaysOpen) {
      return model.sigma * Math.sqrt(elapsed / model.openMsPerYear);
    }
    return 0.5 * model.sigma * Math.sqrt(elapsed / YEAR);
  }

  async history(instrument: FeedInstrument, now: number): Promise<HistorySeed> {
    const model = this.model(instrument);
    const random = new Random(`${this.seed}:${instrument.symbol}:history`);
    const ranges = historyRanges(now, this.options.history);
    const seed = emptySeed();
    // Walk backwards from the reference price: a reversed random walk is a random walk, and this way the
    // last close is the reference and the live walk continues from it.
    let price = Number(instrument.referencePrice);
    let laterOpenStart: number | null = null;
    for (const period of [...HISTORY_PERIODS].reverse()) {
      const size = HISTORY_PERIOD_MS[period];
      const { from, to } = ranges[period];
      const candles: Candle[] = [];
      for (let start = to - size; start >= from; start -= size) {
        const openFraction = this.openFraction(model, period, start);
        if (openFraction === 0) {
          continue;
        }
        const closed = laterOpenStart === null ? 0 : laterOpenStart - (start + size);
        if (closed > 0) {
          price *= Math.exp(-0.5 * model.sigma * Math.sqrt(closed / YEAR) * random.normal());
        }
        laterOpenStart = start;
        const candle = this.backwardCandle(model, random, start, size * openFraction, price);
        price = candle.openPrice;
        candles.push(candle.candle);
      }
      seed[period] = candles.reverse();
    }
    return seed;
  }

  /** One candle ending at `close`, walked backwards over `openMs` of trading in a few sub-steps. */
  private backwardCandle(
    model: Model,
    random: Random,
    start: number,
    openMs: number,
    close: number,
  ): { candle: Candle; openPrice: number } {
    const steps = 8;
    const sigma = model.sigma * Math.sqrt(openMs / steps / model.openMsPerYear);
    let price = close;
    let high = close;
    let low = close;
    let moved = 0;
    for (let i = 0; i < steps; i++) {
      const z = random.fatTailed();
      moved += Math.abs(z);
      price *= Math.exp(-sigma * z);
      high = Math.max(high, price);
      low = Math.min(low, price);
    }
    // Sub-steps miss the extremes between them: add a small wick beyond the sampled range.
    high *= Math.exp(Math.abs(random.normal()) * sigma * 0.5);
    low *= Math.exp(-Math.abs(random.normal()) * sigma * 0.5);
    const toTicks = (p: number) => Math.max(1, Math.round(p / model.tick));
    const volume =
      random.logNormal(model.minuteVolume * (openMs / MINUTE), 0.5) * (0.6 + (0.4 * moved) / steps);
    const { tickSize, lotSize } = model.instrument;
    return {
      openPrice: price,
      candle: {
        time: start,
        open: fromTicks(toTicks(price), tickSize),
        high: fromTicks(toTicks(high), tickSize),
        low: fromTicks(toTicks(low), tickSize),
        close: fromTicks(toTicks(close), tickSize),
        volume: fromTicks(Math.round(volume / model.lot), lotSize),
      },
    };
  }

  /**
   * Share of a history bucket during which the market is open, sampled: the minute's start, every
   * 5 minutes of an hour, the middle of every hour of a day. A closed bucket gets no candle, so a stock
   * has no weekend candles at all.
   */
  private openFraction(model: Model, period: keyof typeof HISTORY_PERIOD_MS, start: number): number {
    if (model.alwaysOpen) {
      return 1;
    }
    const [count, every, offset] =
      period === "1m"
        ? [1, MINUTE, 0]
        : period === "1h"
          ? [12, 5 * MINUTE, 0]
          : [24, 60 * MINUTE, 30 * MINUTE];
    let open = 0;
    for (let i = 0; i < count; i++) {
      if (this.isOpenCached(model.hoursKey, model.instrument.tradingHours, start + offset + i * every)) {
        open++;
      }
    }
    return open / count;
  }

  /** isMarketOpen costs microseconds (Intl); a history samples it ~30k times, shared by same-hours markets. */
  private isOpenCached(key: string, hours: TradingHours, at: number): boolean {
    let cache = this.openCache.get(key);
    if (!cache) {
      if (this.openCache.size > 64) {
        this.openCache.clear();
      }
      cache = new Map();
      this.openCache.set(key, cache);
    }
    let open = cache.get(at);
    if (open === undefined) {
      if (cache.size > 200_000) {
        cache.clear();
      }
      open = isMarketOpen(hours, new Date(at));
      cache.set(at, open);
    }
    return open;
  }

  private model(instrument: FeedInstrument): Model {
    const alwaysOpen = instrument.tradingHours.sessions.length === 0;
    const hoursKey = JSON.stringify(instrument.tradingHours);
    let openShare = 1;
    if (!alwaysOpen) {
      // Share of a week the market trades, sampled every 15 minutes of a fixed week (starting Monday).
      const weekStart = Date.UTC(2024, 0, 1);
      let open = 0;
      for (let t = weekStart; t < weekStart + WEEK; t += 15 * MINUTE) {
        if (this.isOpenCached(hoursKey, instrument.tradingHours, t)) {
          open++;
        }
      }
      openShare = Math.max(open / (WEEK / (15 * MINUTE)), 1 / 672);
    }
    const reference = Number(instrument.referencePrice);
    return {
      instrument,
      tick: Number(instrument.tickSize),
      lot: Number(instrument.lotSize),
      sigma: Number(instrument.volatility),
      openMsPerYear: YEAR * openShare,
      alwaysOpen,
      hoursKey,
      minuteVolume: NOTIONAL_PER_MINUTE[instrument.category] / reference,
    };
  }
}
