import { ContractTickRecorder } from "@northstar/domain/contracts";
import type { Db } from "@northstar/domain/db";
import { createFeed, LiveFeed, MarketDataService } from "@northstar/domain/market-feed";
import {
  checkSourceHealth,
  clearSourceHealth,
  deploymentSimulatorSeed,
  recordRunningFeed,
} from "@northstar/domain/markets";
import { OptionTickRecorder } from "@northstar/domain/options";
import { getPolicy } from "@northstar/domain/policy";
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
      yahooIntervalMs: await getPolicy(db, "feeds.yahoo.pollIntervalMs"),
      startedAt: Date.now(),
      onError: (source, error) =>
        log(`market feed: ${source} failed: ${error instanceof Error ? error.message : String(error)}`),
    });
    // A new feed counts its sources' health afresh; a sandbox's feed has none to pause.
    await clearSourceHealth(db);
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
    const health = feed instanceof LiveFeed ? watchSourceHealth(db, feed, log) : null;
    return {
      async stop() {
        health?.stop();
        await service.stop();
        await ticks.stop();
        await contractTicks.stop();
      },
    };
  });
}

/**
 * Checks the live feed's sources every second and records their health: a source without a new price
 * for `feeds.staleAfterSeconds` pauses its markets until one arrives (the API refuses their new orders).
 */
export function watchSourceHealth(db: Db, feed: LiveFeed, log: (line: string) => void) {
  const paused = new Set<string>();
  let busy = false;
  const check = () => {
    if (busy) {
      return;
    }
    busy = true;
    void checkSourceHealth(db, feed.health)
      .then((states) => {
        for (const s of states) {
          if (s.staleSince !== null && !paused.has(s.source)) {
            paused.add(s.source);
            log(
              `market feed: ${s.source} stale since ${new Date(s.staleSince).toISOString()}, its markets paused`,
            );
          } else if (s.staleSince === null && paused.delete(s.source)) {
            log(`market feed: ${s.source} live again, its markets resumed`);
          }
        }
      })
      .catch((error) =>
        log(`market feed: health check failed: ${error instanceof Error ? error.message : error}`),
      )
      .finally(() => {
        busy = false;
      });
  };
  const timer = setInterval(check, 1000);
  check();
  return {
    stop() {
      clearInterval(timer);
    },
  };
}
