import { CcxtFeed, createCcxtExchange } from "./ccxt.ts";
import { ReplayFeed } from "./replay.ts";
import { SimulatorFeed } from "./simulator.ts";
import type { HistorySpan, MarketFeed } from "./types.ts";

export const FEED_KINDS = ["simulator", "replay", "ccxt"] as const;
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
    case "ccxt": {
      const id = config.exchange;
      if (!id) {
        throw new Error("ccxt feed: exchange is required");
      }
      return new CcxtFeed({
        exchange: () => createCcxtExchange(id),
        intervalMs,
        history,
        source: config.ccxtSource,
      });
    }
  }
}
