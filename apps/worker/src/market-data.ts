import { ContractTickRecorder } from "@northstar/domain/contracts";
import type { Db } from "@northstar/domain/db";
import { createFeed, MarketDataService } from "@northstar/domain/market-feed";
import { OptionTickRecorder } from "@northstar/domain/options";
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
    // Options settle by recorded prices: the ticks of instruments with options products are stored.
    const ticks = new OptionTickRecorder(db, log);
    // Contracts open, trigger and liquidate by recorded prices too.
    const contractTicks = new ContractTickRecorder(db, log);
    const recorded = {
      name: feed.name,
      history: feed.history.bind(feed),
      start: (instruments: Parameters<typeof feed.start>[0], onTick: Parameters<typeof feed.start>[1]) =>
        feed.start(instruments, (tick) => {
          onTick(tick);
          ticks.onTick(tick);
          contractTicks.onTick(tick);
        }),
      stop: () => feed.stop(),
    };
    const service = new MarketDataService({ db, redis, prefix: env.REDIS_PREFIX, feed: recorded, log });
    ticks.start();
    contractTicks.start();
    await service.start();
    return {
      async stop() {
        await service.stop();
        await ticks.stop();
        await contractTicks.stop();
      },
    };
  });
}
