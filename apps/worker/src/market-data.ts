import type { Db } from "@northstar/domain/db";
import { createFeed, MarketDataService } from "@northstar/domain/market-feed";
import type { Redis } from "ioredis";
import type { env as loadEnv } from "./env.ts";
import { runUnderLease } from "./leased.ts";

/** Runs the market feed in exactly one worker: the holder of the `market-feed` lease. */
export function startMarketData(
  db: Db,
  redis: Redis,
  env: ReturnType<typeof loadEnv>,
  log: (line: string) => void,
): { close(): Promise<void> } {
  return runUnderLease(redis, `${env.REDIS_PREFIX}:lease:market-feed`, log, env.LEASE_TTL_MS, async () => {
    const feed = createFeed({
      kind: env.FEED_KIND,
      seed: env.FEED_SEED,
      replayDir: env.FEED_REPLAY_DIR,
      exchange: env.FEED_EXCHANGE,
      intervalMs: env.FEED_INTERVAL_MS,
    });
    const service = new MarketDataService({ db, redis, prefix: env.REDIS_PREFIX, feed, log });
    await service.start();
    return service;
  });
}
