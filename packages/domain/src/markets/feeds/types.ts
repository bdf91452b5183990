import type { Candle, Instrument } from "@northstar/shared/markets";

/** One price update. `volume` is the base quantity traded since the previous tick ("0" allowed). */
export interface Tick {
  symbol: string;
  price: string;
  volume: string;
  /** ms since the epoch, UTC: the market time of the price (the source's time for a live source). */
  time: number;
  /**
   * Where the price comes from: an exchange or data vendor id ("binance", "yahoo"), "simulator" for a
   * made-up price, or "replay:<file>" for a recorded one.
   */
  source: string;
  /** The instrument's symbol at the source ("BTC/USDT", "EURUSD=X"; our symbol for the simulator). */
  sourceSymbol: string;
  /** The source's own time of the price, ms since the epoch, UTC. */
  sourceTime: number;
  /** The source's trade or quote id, where it has one. */
  sourceId?: string;
  /** When we received (or, for the simulator, made) the price, ms since the epoch, UTC. */
  receivedAt: number;
}

/** Provenance fields of a tick, for code that builds ticks from a source's payload. */
export type TickProvenance = Pick<Tick, "source" | "sourceSymbol" | "sourceTime" | "sourceId" | "receivedAt">;

/**
 * What a feed needs to know about an instrument. `lastPrice` is the last stored close, so that a
 * restarted simulator continues from where the charts stopped instead of jumping back to the reference.
 */
export type FeedInstrument = Pick<
  Instrument,
  "symbol" | "category" | "tickSize" | "lotSize" | "referencePrice" | "volatility" | "tradingHours"
> &
  Partial<Pick<Instrument, "base" | "quote" | "feedSource" | "sourceSymbol">> & { lastPrice?: string };

/** The periods a history seed holds, finest last. */
export const HISTORY_PERIODS = ["1d", "1h", "1m"] as const;
export type HistoryPeriod = (typeof HISTORY_PERIODS)[number];

/**
 * Candles to seed charts with, in three non-overlapping, time-ordered sections: daily candles, then
 * hourly, then 1-minute up to `now`. Section edges are aligned (the hourly section starts on a UTC day,
 * the minute section on an hour), so every bucket of every longer period rolls up from one section.
 */
export type HistorySeed = Record<HistoryPeriod, Candle[]>;

/** How far back each section of a history seed reaches. */
export interface HistorySpan {
  /** Hours of 1-minute candles before now. */
  minuteHours: number;
  /** Days of hourly candles before the minute section. */
  hourDays: number;
  /** Days of daily candles before the hourly section. */
  dayDays: number;
}

export const DEFAULT_HISTORY_SPAN: HistorySpan = { minuteHours: 24, hourDays: 30, dayDays: 730 };

export interface MarketFeed {
  readonly name: string;
  /** Candles to seed charts on first start, for one instrument, ending before `now`. */
  history(instrument: FeedInstrument, now: number): Promise<HistorySeed>;
  /** Starts emitting ticks for these instruments; resolves when running. */
  start(instruments: FeedInstrument[], onTick: (tick: Tick) => void): Promise<void>;
  stop(): Promise<void>;
}

/** A source of the current time in ms, injectable so that tests need no timers. */
export type FeedClock = () => number;
export const systemClock: FeedClock = () => Date.now();
