import type { FeedSource } from "@northstar/shared/markets";
import { emptySeed } from "./history.ts";
import type { FeedInstrument, HistorySeed, MarketFeed, Tick } from "./types.ts";

/** Per live source, what it last said: the newest source time, when that arrived, the last failure. */
interface SourceRecord {
  label: string | null;
  lastSourceTime: number | null;
  /** Our receive time of the newest price (one whose source time moved on). */
  freshAt: number | null;
  lastError: string | null;
}

/** A live source's health at one moment. */
export interface SourceHealth {
  source: FeedSource;
  /** The name its ticks carry ("binance", "yahoo"), once it has sent one. */
  label: string | null;
  /** Since when it has given no new price, when that is longer than the allowed gap; null while live. */
  staleSince: number | null;
  lastSourceTime: number | null;
  lastError: string | null;
}

/**
 * Watches live sources: a source is stale once it has given no new price (no newer source time) for
 * longer than `staleAfterMs`, whether its polls fail or it just repeats itself. Stale since: its newest
 * price's arrival, or the start when it never sent one. Pure and clock-free: callers pass the time.
 */
export class SourceHealthTracker {
  private readonly records = new Map<FeedSource, SourceRecord>();

  constructor(
    sources: readonly FeedSource[],
    private readonly startedAt: number,
  ) {
    for (const source of sources) {
      this.records.set(source, { label: null, lastSourceTime: null, freshAt: null, lastError: null });
    }
  }

  sawTick(source: FeedSource, tick: Tick): void {
    const record = this.records.get(source);
    if (!record) {
      return;
    }
    record.label = tick.source;
    if (record.lastSourceTime === null || tick.sourceTime > record.lastSourceTime) {
      record.lastSourceTime = tick.sourceTime;
      record.freshAt = tick.receivedAt;
      record.lastError = null;
    }
  }

  failed(source: FeedSource, error: unknown): void {
    const record = this.records.get(source);
    if (record) {
      record.lastError = (error instanceof Error ? error.message : String(error)).slice(0, 500);
    }
  }

  status(now: number, staleAfterMs: number): SourceHealth[] {
    return [...this.records].map(([source, r]) => {
      const since = r.freshAt ?? this.startedAt;
      return {
        source,
        label: r.label,
        staleSince: now - since > staleAfterMs ? since : null,
        lastSourceTime: r.lastSourceTime,
        lastError: r.lastError,
      };
    });
  }
}

/**
 * The production feed: each instrument goes to the source the catalogue maps it to (crypto to ccxt,
 * the rest to Yahoo). An instrument mapped to no source, or to one this feed was not given, gets no
 * prices: it is view-only for real accounts. Every tick passes the health tracker on its way out.
 */
export class LiveFeed implements MarketFeed {
  readonly name = "live";
  readonly health: SourceHealthTracker;

  constructor(
    private readonly routes: Partial<Record<FeedSource, MarketFeed>>,
    startedAt: number,
    private readonly onStartError: (source: FeedSource, error: unknown) => void = (source, error) =>
      console.error(`live feed: ${source} did not start:`, error),
  ) {
    this.health = new SourceHealthTracker(Object.keys(routes) as FeedSource[], startedAt);
  }

  /** The sources this feed serves. */
  sources(): FeedSource[] {
    return Object.keys(this.routes) as FeedSource[];
  }

  private route(instrument: FeedInstrument): MarketFeed | null {
    return instrument.feedSource ? (this.routes[instrument.feedSource] ?? null) : null;
  }

  history(instrument: FeedInstrument, now: number): Promise<HistorySeed> {
    return this.route(instrument)?.history(instrument, now) ?? Promise.resolve(emptySeed());
  }

  async start(instruments: FeedInstrument[], onTick: (tick: Tick) => void): Promise<void> {
    for (const [source, feed] of Object.entries(this.routes) as [FeedSource, MarketFeed][]) {
      const mine = instruments.filter((i) => i.feedSource === source);
      try {
        await feed.start(mine, (tick) => {
          this.health.sawTick(source, tick);
          onTick(tick);
        });
      } catch (error) {
        // A source that cannot start (unreachable at boot) goes stale and pauses its own markets only.
        this.health.failed(source, error);
        this.onStartError(source, error);
      }
    }
  }

  async stop(): Promise<void> {
    for (const feed of Object.values(this.routes)) {
      await feed?.stop();
    }
  }
}
