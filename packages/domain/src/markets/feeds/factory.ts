import type { FeedSource } from "@northstar/shared/markets";
import { CcxtFeed, createCcxtExchange } from "./ccxt.ts";
import { LiveFeed } from "./live.ts";
import { ReplayFeed } from "./replay.ts";
import { SimulatorFeed } from "./simulator.ts";
import type { HistorySpan, MarketFeed } from "./types.ts";
import { createYahooClient, type YahooClient, YahooFeed } from "./yahoo.ts";

/**
 * simulator and replay: a sandbox's made-up or recorded prices. ccxt: every instrument a crypto exchange
 * lists. yahoo: the instruments the catalogue maps to Yahoo Finance. live: production, each instrument
 * from the source the catalogue maps it to (crypto from ccxt, the rest from Yahoo).
 */
export const FEED_KINDS = ["simulator", "replay", "ccxt", "yahoo", "live"] as const;
export type FeedKind = (typeof FEED_KINDS)[number];

/** Feed configuration as the worker reads it from its environment. */
export interface FeedConfig {
  kind: FeedKind;
  /** Simulator: the random seed. */
  seed?: string | number;
  /** Replay: the folder of recorded `<SYMBOL>_<period>.csv` files. */
  replayDir?: string;
  /** Replay: replay-time speed (1 = real time). */
  speed?: number;
  /** Replay: recording name per catalogue symbol where they differ, e.g. `{ SPX500: "SPX" }`. */
  aliases?: Record<string, string>;
  /** ccxt: the exchange id, e.g. "binance". */
  exchange?: string;
  /** ccxt: "tickers" (default, prices only) or "trades" (real volume, a request per instrument). */
  ccxtSource?: "tickers" | "trades";
  /** yahoo and live: time between Yahoo polls (policy `feeds.yahoo.pollIntervalMs`). */
  yahooIntervalMs?: number;
  /** yahoo and live: the client (tests pass one serving recorded responses); default the real library. */
  yahooClient?: () => Promise<YahooClient>;
  /** live: when the feed starts (the health tracker counts a silent source stale from then). */
  startedAt?: number;
  /** Polling failures, per source. */
  onError?: (source: FeedSource, error: unknown) => void;
  intervalMs?: number;
  history?: Partial<HistorySpan>;
}

/** The feed a configuration asks for. Nothing is loaded or fetched until the feed is used. */
export function createFeed(config: FeedConfig): MarketFeed {
  const { intervalMs, history } = config;
  switch (config.kind) {
    case "simulator":
      return new SimulatorFeed({ seed: config.seed, intervalMs, history });
    case "replay":
      if (!config.replayDir) {
        throw new Error("replay feed: replayDir is required");
      }
      return new ReplayFeed({
        dir: config.replayDir,
        speed: config.speed,
        aliases: config.aliases,
        intervalMs,
        history,
      });
    case "ccxt":
      return ccxtFeed(config);
    case "yahoo":
      return yahooFeed(config);
    case "live": {
      let live: LiveFeed | null = null;
      const report = (source: FeedSource) => (error: unknown) => {
        live?.health.failed(source, error);
        config.onError?.(source, error);
      };
      live = new LiveFeed(
        { ccxt: ccxtFeed(config, report("ccxt")), yahoo: yahooFeed(config, report("yahoo")) },
        config.startedAt ?? Date.now(),
      );
      return live;
    }
  }
}

function ccxtFeed(config: FeedConfig, onError?: (error: unknown) => void): CcxtFeed {
  const id = config.exchange;
  if (!id) {
    throw new Error("ccxt feed: exchange is required");
  }
  return new CcxtFeed({
    exchange: () => createCcxtExchange(id),
    intervalMs: config.intervalMs,
    history: config.history,
    source: config.ccxtSource,
    onError: onError ?? routeErrors(config, "ccxt"),
  });
}

function yahooFeed(config: FeedConfig, onError?: (error: unknown) => void): YahooFeed {
  return new YahooFeed({
    client: config.yahooClient ?? (() => createYahooClient()),
    intervalMs: config.yahooIntervalMs,
    history: config.history,
    onError: onError ?? routeErrors(config, "yahoo"),
  });
}

/** The configured error handler for one source, or none (the feed then logs to the console). */
function routeErrors(config: FeedConfig, source: FeedSource): ((error: unknown) => void) | undefined {
  const { onError } = config;
  return onError ? (error) => onError(source, error) : undefined;
}
