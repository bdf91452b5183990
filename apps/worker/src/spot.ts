import type { Db } from "@northstar/domain/db";
import { MarketMaker, SpotMatcher } from "@northstar/domain/spot";
import type { Redis } from "ioredis";
import type { env as loadEnv } from "./env.ts";
import { runShards, runUnderLease } from "./leased.ts";

/**
 * The spot matchers and the market maker. The markets are split over `SPOT_MATCHER_SHARDS` shards
 * (`shardOf(symbol, shards)`); each shard is a lease of its own (`lease:spot-matcher:<i>`), and its
 * holder runs a matcher that is the single writer of that shard's books. A worker takes every free
 * shard (up to `SPOT_MATCHER_MAX_SHARDS`) and stands by for the others, so a standby takes a dead
 * holder's shards within the lease's TTL; while workers with another shard count hold any, it takes
 * none (a market would otherwise be in two shards: `runShards`). Each matcher blocks on its own
 * Redis connection while it reads its markets' command streams. The market maker runs in one
 * worker and quotes every market.
 */
export function startSpot(
  db: Db,
  redis: Redis,
  env: ReturnType<typeof loadEnv>,
  log: (line: string) => void,
): { close(): Promise<void> } {
  const roles = env.WORKER_ROLES;
  const none = { close: async () => {} };
  const count = env.SPOT_MATCHER_SHARDS;
  const matchers = !roles.has("spot-matcher")
    ? none
    : runShards(
        redis,
        {
          prefix: env.REDIS_PREFIX,
          role: "spot-matcher",
          count,
          maxShards: env.SPOT_MATCHER_MAX_SHARDS,
          ttlMs: env.LEASE_TTL_MS,
          log,
        },
        async (index) => {
          const connection = redis.duplicate();
          const service = new SpotMatcher({
            db,
            redis: connection,
            prefix: env.REDIS_PREFIX,
            log,
            shard: { index, count },
          });
          await service.start();
          return {
            async stop() {
              await service.stop();
              connection.disconnect();
            },
          };
        },
      );
  const maker = !roles.has("market-maker")
    ? none
    : runUnderLease(redis, `${env.REDIS_PREFIX}:lease:spot-market-maker`, log, env.LEASE_TTL_MS, async () => {
        const service = new MarketMaker({ db, redis, prefix: env.REDIS_PREFIX, log });
        await service.start();
        return service;
      });
  return {
    async close() {
      await Promise.all([matchers.close(), maker.close()]);
    },
  };
}
