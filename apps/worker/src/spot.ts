import type { Db } from "@northstar/domain/db";
import { MarketMaker, SpotMatcher } from "@northstar/domain/spot";
import type { Redis } from "ioredis";
import type { env as loadEnv } from "./env.ts";
import { runUnderLease } from "./leased.ts";

/**
 * The spot matcher (single writer of every spot book) and the market maker, each in exactly one
 * worker at a time. The matcher blocks on its own Redis connection while it reads command streams.
 */
export function startSpot(
  db: Db,
  redis: Redis,
  env: ReturnType<typeof loadEnv>,
  log: (line: string) => void,
): { close(): Promise<void> } {
  const roles = env.WORKER_ROLES;
  const none = { close: async () => {} };
  const matcher = !roles.has("spot-matcher")
    ? none
    : runUnderLease(redis, `${env.REDIS_PREFIX}:lease:spot-matcher`, log, env.LEASE_TTL_MS, async () => {
        const connection = redis.duplicate();
        const service = new SpotMatcher({ db, redis: connection, prefix: env.REDIS_PREFIX, log });
        await service.start();
        return {
          async stop() {
            await service.stop();
            connection.disconnect();
          },
        };
      });
  const maker = !roles.has("market-maker")
    ? none
    : runUnderLease(redis, `${env.REDIS_PREFIX}:lease:spot-market-maker`, log, env.LEASE_TTL_MS, async () => {
        const service = new MarketMaker({ db, redis, prefix: env.REDIS_PREFIX, log });
        await service.start();
        return service;
      });
  return {
    async close() {
      await Promise.all([matcher.close(), maker.close()]);
    },
  };
}
