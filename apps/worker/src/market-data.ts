import { ContractTickRecorder } from "@northstar/domain/contracts";
import type { Db } from "@northstar/domain/db";
import { createFeed, MarketDataService } from "@northstar/domain/market-feed";
import { deploymentSimulatorSeed, recordRunningFeed } from "@northstar/domain/markets";
import { OptionTickRecorder } from "@northstar/domain/options";
import type { Redis } from "ioredis";
import type { env as loadEnv } from "./env.ts";
import { runUnderLease } from "./leased.ts";

type WorkerEnv = ReturnType<typeof loadEnv>;

/**
 * The simulator's seed: FEED_SEED when given (tests, a replay of a recorded run), otherwise the
 * deployment's own, drawn at random on its first start and kept in the database. Never logged.
 */
export async function feedSeed(
  db: Db,
  env: Pick<WorkerEnv, "FEED_KIND" | "FEED_SEED">,
): Promise<string | undefined> {
  if (env.FEED_SEED !== undefined) {
    return env.FEED_SEED;
  }
  return env.FEED_KIND === "simulator" ? deploymentSimulatorSeed(db) : undefined;
}

/** Records which feed now serves the platform's prices (the web tells users when they are simulated). */
export async function recordFeedStart(db: Db, env: Pick<WorkerEnv, "FEED_KIND" | "SANDBOX">) {
  await recordRunningFeed(db, env.FEED_KIND, env.SANDBOX);
}

/** Runs the market feed in exactly one worker: the holder of the `market-feed` lease. */
export function startMarketData(
  db: Db,
  redis: Redis,
  env: WorkerEnv,
  log: (line: string) => void,
): { close(): Promise<void> } {
  return runUnderLease(redis, `${env.REDIS_PREFIX}:lease:market-feed`, log, env.LEASE_TTL_MS, async () => {
    const feed = createFeed({
      kind: env.FEED_KIND,
      seed: await feedSeed(db, env),
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
          // Recorded with its provenance: source, source symbol and time, source id, receive time.
          ticks.onTick(tick);
          contractTicks.onTick(tick);
        }),
      stop: () => feed.stop(),
    };
    const service = new MarketDataService({ db, redis, prefix: env.REDIS_PREFIX, feed: recorded, log });
    ticks.start();
    contractTicks.start();
    await service.start();
    await recordFeedStart(db, env);
    return {
      async stop() {
        await service.stop();
        await ticks.stop();
        await contractTicks.stop();
      },
    };
  });
}
