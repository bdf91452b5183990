import { join } from "node:path";
import { type Candle, periodStart } from "@northstar/shared/markets";
import { MoneyDecimal } from "@northstar/shared/money";
import { aggregateCandles } from "../candles/aggregate.ts";
import { readCandlesCsv } from "./csv.ts";
import { emptySeed, HISTORY_PERIOD_MS, historyRanges, type TimeRange } from "./history.ts";
import {
  type FeedClock,
  type FeedInstrument,
  HISTORY_PERIODS,
  type HistoryPeriod,
  type HistorySeed,
  type HistorySpan,
  type MarketFeed,
  systemClock,
  type Tick,
} from "./types.ts";

export interface ReplayOptions {
  /** Folder of `<SYMBOL>_<period>.csv` files (period 1m, 1h, 1d). */
  dir: string;
  /** Replay-time ms per wall-clock ms. Above 1, tick times run ahead of the wall clock. */
  speed?: number;
  /** How often due ticks are emitted. */
  intervalMs?: number;
  clock?: FeedClock;
  /** No timer: the caller drives the feed with `step(now)`. */
  manual?: boolean;
  /** Start the recording over when it ends (default), instead of falling silent. */
  loop?: boolean;
  history?: Partial<HistorySpan>;
  /** Recording name per catalogue symbol where they differ, e.g. `{ SPX500: "SPX" }`. */
  aliases?: Record<string, string>;
  /**
   * How far into the recording the replay starts; the part before it seeds the charts. Default: half
   * the loop, at most 31 days (a month of hourly history); never so far that less than one day or week
   * of the recording is left to play.
   */
  leadMs?: number;
  /**
   * A feed that falls further behind than this (a paused process) skips ahead to the present instead
   * of pouring out the backlog. Infinity never skips.
   */
  maxLagMs?: number;
}

const DAY = 86_400_000;
const WEEK = 7 * DAY;
/** Where in a recorded candle its four ticks fall, as a share of the candle. */
const SUB_TICKS = [0, 0.25, 0.5, 0.75] as const;

/** One instrument's recording and where "now" falls in it. */
interface Recording {
  /** The recording's name: the `<name>_<period>.csv` files it was read from. */
  name: string;
  files: Partial<Record<HistoryPeriod, Candle[]>>;
  /** The finest recorded period: its candles become the live ticks. */
  live: { period: HistoryPeriod; candles: Candle[] } | null;
  timeline?: Timeline;
}

/**
 * Recorded time maps to the present by a constant offset per pass over the recording. Offsets are whole
 * days (24/7 markets) or whole weeks (markets with sessions), so hourly and daily candles stay on their
 * boundaries and a forex Monday is replayed on a Monday; the loop length is a whole number of the same
 * unit, so every later pass keeps that alignment.
 */
interface Timeline {
  start: number;
  offset: number;
  loopMs: number;
}

interface Cursor {
  recording: Recording;
  live: { period: HistoryPeriod; candles: Candle[] };
  symbol: string;
  pass: number;
  index: number;
  sub: number;
}

/**
 * Replays recorded candles as ticks: each candle becomes open, then the nearer extreme for its direction
 * (low first on an up candle), the other extreme, and close, with its volume split across them. Prices
 * are the recorded strings, untouched. Feeding the ticks through a CandleBuilder gives the recording back.
 */
export class ReplayFeed implements MarketFeed {
  readonly name = "replay";
  private readonly speed: number;
  private readonly intervalMs: number;
  private readonly clock: FeedClock;
  private readonly loop: boolean;
  private readonly leadMs: number | undefined;
  private readonly maxLagMs: number;
  private readonly recordings = new Map<string, Promise<Recording>>();
  private cursors: Cursor[] = [];
  private onTick: ((tick: Tick) => void) | null = null;
  private timer: ReturnType<typeof setInterval> | null = null;
  private startedAt = 0;

  constructor(private readonly options: ReplayOptions) {
    this.speed = options.speed ?? 1;
    this.intervalMs = options.intervalMs ?? 1000;
    this.clock = options.clock ?? systemClock;
    this.loop = options.loop ?? true;
    this.leadMs = options.leadMs;
    this.maxLagMs = options.maxLagMs ?? 5 * 60_000;
  }

  async history(instrument: FeedInstrument, now: number): Promise<HistorySeed> {
    const recording = await this.recording(instrument.symbol);
    if (!recording.live) {
      return emptySeed();
    }
    const timeline = this.timeline(recording, instrument, now);
    const offset = this.passOffset(timeline, now);
    const replayStart = now - offset;
    const recorded = historyRanges(replayStart, this.options.history);
    const live = recording.live.period;
    if (live !== "1m") {
      // No minute recording: the live period's own section runs up to the replay start.
      const end = periodStart(live, replayStart);
      recorded[live] = { from: recorded[live].from, to: end };
      for (const finer of live === "1h" ? (["1m"] as const) : (["1h", "1m"] as const)) {
        recorded[finer] = { from: end, to: end };
      }
    }
    const seed = emptySeed();
    for (const period of HISTORY_PERIODS) {
      seed[period] = this.section(recording, period, recorded[period]).map((c) => ({
        ...c,
        time: c.time + offset,
      }));
    }
    return seed;
  }

  async start(instruments: FeedInstrument[], onTick: (tick: Tick) => void): Promise<void> {
    await this.stop();
    const now = this.clock();
    this.startedAt = now;
    this.cursors = [];
    for (const instrument of instruments) {
      const recording = await this.recording(instrument.symbol);
      if (!recording.live) {
        continue;
      }
      const cursor: Cursor = {
        recording,
        live: recording.live,
        symbol: instrument.symbol,
        pass: 0,
        index: 0,
        sub: 0,
      };
      this.timeline(recording, instrument, now);
      this.seek(cursor, now);
      this.cursors.push(cursor);
    }
    this.onTick = onTick;
    if (!this.options.manual) {
      this.step(now);
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

  /** Emits, in order, every recorded tick due by wall-clock `now`, and returns them. */
  step(now: number): Tick[] {
    const replayNow = this.startedAt + (now - this.startedAt) * this.speed;
    const ticks: Tick[] = [];
    for (const cursor of this.cursors) {
      // Skip ahead at most once: the candle in progress may itself start more than maxLagMs ago.
      let skipped = false;
      for (;;) {
        const due = this.next(cursor, now);
        if (!due || due.time > replayNow) {
          break;
        }
        if (!skipped && replayNow - due.time > this.maxLagMs) {
          this.seek(cursor, replayNow);
          skipped = true;
          continue;
        }
        ticks.push(due);
        this.onTick?.(due);
        this.advance(cursor);
      }
    }
    return ticks;
  }

  /**
   * The next tick at the cursor, or null at the end of a recording that does not loop. Its source is
   * the recorded file and its source time the recorded time; `time` is that moment shifted to the present.
   */
  private next(cursor: Cursor, receivedAt: number): Tick | null {
    const timeline = cursor.recording.timeline;
    if (!timeline) {
      return null;
    }
    const candle = cursor.live.candles[cursor.index];
    // Without looping the whole recording plays; with it, each pass stops at the whole-unit loop length.
    if (!candle || (this.loop && candle.time >= timeline.start + timeline.loopMs)) {
      if (!this.loop) {
        return null;
      }
      cursor.pass++;
      cursor.index = 0;
      cursor.sub = 0;
      return this.next(cursor, receivedAt);
    }
    const step = cachedPath(candle)[cursor.sub];
    const fraction = SUB_TICKS[cursor.sub];
    if (!step || fraction === undefined) {
      return null;
    }
    const recordedTime = candle.time + fraction * HISTORY_PERIOD_MS[cursor.live.period];
    return {
      symbol: cursor.symbol,
      price: step.price,
      volume: step.volume,
      time: recordedTime + timeline.offset + cursor.pass * timeline.loopMs,
      source: `replay:${cursor.recording.name}_${cursor.live.period}.csv`,
      sourceSymbol: cursor.recording.name,
      sourceTime: recordedTime,
      receivedAt,
    };
  }

  private advance(cursor: Cursor): void {
    cursor.sub++;
    if (cursor.sub >= SUB_TICKS.length) {
      cursor.sub = 0;
      cursor.index++;
    }
  }

  /** Puts the cursor on the recorded candle in progress at replay time `at` (or the next one). */
  private seek(cursor: Cursor, at: number): void {
    const timeline = cursor.recording.timeline;
    if (!timeline) {
      return;
    }
    const pass = this.passAt(timeline, at);
    const recorded = at - timeline.offset - pass * timeline.loopMs;
    const size = HISTORY_PERIOD_MS[cursor.live.period];
    cursor.pass = pass;
    cursor.index = lowerBound(cursor.live.candles, (c) => c.time + size > recorded);
    cursor.sub = 0;
  }

  /** Which pass over the recording replay time `at` falls in (always the first when not looping). */
  private passAt(timeline: Timeline, at: number): number {
    if (!this.loop) {
      return 0;
    }
    return Math.max(0, Math.floor((at - timeline.offset - timeline.start) / timeline.loopMs));
  }

  /** The offset of the pass over the recording that replay time `at` falls in. */
  private passOffset(timeline: Timeline, at: number): number {
    return timeline.offset + this.passAt(timeline, at) * timeline.loopMs;
  }

  /**
   * Fixed on first use (history or start) so both agree: the whole-unit offset that puts "now" between
   * `leadMs` and `leadMs` + one unit into the recording.
   */
  private timeline(recording: Recording, instrument: FeedInstrument, now: number): Timeline {
    if (recording.timeline) {
      return recording.timeline;
    }
    const candles = recording.live?.candles ?? [];
    const first = candles[0];
    const last = candles[candles.length - 1];
    if (!recording.live || !first || !last) {
      throw new Error("replay: empty recording");
    }
    const unit = instrument.tradingHours.sessions.length === 0 ? DAY : WEEK;
    const span = last.time + HISTORY_PERIOD_MS[recording.live.period] - first.time;
    // A 24/7 recording is cut to whole days (no silent tail); one with sessions is padded to whole
    // weeks, where the padding falls on its weekend.
    const loopMs = unit === DAY && span >= DAY ? Math.floor(span / DAY) * DAY : Math.ceil(span / unit) * unit;
    const lead = Math.min(this.leadMs ?? Math.min(loopMs / 2, 31 * DAY), Math.max(0, loopMs - unit));
    const anchor = first.time + lead;
    const offset = Math.floor((now - anchor) / unit) * unit;
    recording.timeline = { start: first.time, offset, loopMs };
    return recording.timeline;
  }

  /**
   * One history section in recorded time: the recorded candles of its own period, with buckets the file
   * lacks filled in from finer recordings where those cover them.
   */
  private section(recording: Recording, period: HistoryPeriod, range: TimeRange): Candle[] {
    const within = (p: HistoryPeriod) =>
      (recording.files[p] ?? []).filter((c) => c.time >= range.from && c.time < range.to);
    const minutes = within("1m");
    if (period === "1m") {
      return minutes;
    }
    const hours = preferFirst(within("1h"), aggregateCandles(minutes, "1h"));
    if (period === "1h") {
      return hours;
    }
    return preferFirst(within("1d"), aggregateCandles(hours, "1d"));
  }

  private recording(symbol: string): Promise<Recording> {
    let recording = this.recordings.get(symbol);
    if (!recording) {
      recording = this.load(this.options.aliases?.[symbol] ?? symbol);
      this.recordings.set(symbol, recording);
    }
    return recording;
  }

  private async load(name: string): Promise<Recording> {
    const files: Recording["files"] = {};
    let live: Recording["live"] = null;
    // Finest first, so the first file found is the live source.
    for (const period of [...HISTORY_PERIODS].reverse()) {
      const candles = await readCandlesCsv(join(this.options.dir, `${name}_${period}.csv`));
      if (!candles || candles.length === 0) {
        continue;
      }
      files[period] = candles;
      live ??= { period, candles };
    }
    return { name, files, live };
  }
}

/** The four ticks of a recorded candle: price strings as recorded, volume split exactly. */
export function tickPath(candle: Candle): { price: string; volume: string }[] {
  const up = new MoneyDecimal(candle.close).gte(candle.open);
  const prices = up
    ? [candle.open, candle.low, candle.high, candle.close]
    : [candle.open, candle.high, candle.low, candle.close];
  const volumes = splitVolume(candle.volume, prices.length);
  return prices.map((price, i) => ({ price, volume: volumes[i] ?? "0" }));
}

const pathCache = new WeakMap<Candle, { price: string; volume: string }[]>();
function cachedPath(candle: Candle): { price: string; volume: string }[] {
  let path = pathCache.get(candle);
  if (!path) {
    path = tickPath(candle);
    pathCache.set(candle, path);
  }
  return path;
}

/** Splits a volume into `parts` at its own decimal precision; the last part takes the remainder. */
function splitVolume(volume: string, parts: number): string[] {
  const total = new MoneyDecimal(volume);
  const share = total.div(parts).toDecimalPlaces(total.decimalPlaces(), MoneyDecimal.ROUND_DOWN);
  const out = Array.from({ length: parts - 1 }, () => share.toFixed());
  out.push(total.minus(share.times(parts - 1)).toFixed());
  return out;
}

/** Sorted union by time; on equal times the candle of `a` wins. */
function preferFirst(a: Candle[], b: Candle[]): Candle[] {
  const byTime = new Map<number, Candle>();
  for (const c of b) {
    byTime.set(c.time, c);
  }
  for (const c of a) {
    byTime.set(c.time, c);
  }
  return [...byTime.values()].sort((x, y) => x.time - y.time);
}

/** First index whose element satisfies a predicate that is false, then true, along the array. */
function lowerBound<T>(items: readonly T[], predicate: (item: T) => boolean): number {
  let lo = 0;
  let hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (predicate(items[mid] as T)) {
      hi = mid;
    } else {
      lo = mid + 1;
    }
  }
  return lo;
}
