import { chainConfigFromEnv } from "@northstar/domain/chain";
import { createDb } from "@northstar/domain/db";
import { createTickerPriceProvider, readTickers } from "@northstar/domain/markets";
import { useMessagePublisher } from "@northstar/domain/messages";
import { createQueueNotifier } from "@northstar/domain/notifications";
import { Redis } from "ioredis";
import type { ApiEnv } from "../env.ts";
import type { AppDeps } from "./deps.ts";

/** Connects to PostgreSQL and Redis from the environment. */
export function createDeps(env: ApiEnv): AppDeps & { close(): Promise<void> } {
  const { db, close: closeDb } = createDb(env.DATABASE_URL, { max: 20 });
  // BullMQ needs maxRetriesPerRequest: null on connections it uses for blocking commands.
  const redis = new Redis(env.REDIS_URL, { maxRetriesPerRequest: null });
  const notifier = createQueueNotifier(redis, env.REDIS_PREFIX);
  // Messages written through this handle (tRPC, legacy calls, the operator CLI) update badges live.
  useMessagePublisher(db, redis, env.REDIS_PREFIX);
  return {
    db,
    redis,
    notifier,
    // Money screens value assets at the feed's last prices, read from the worker's ticker snapshot.
    prices: createTickerPriceProvider(() => readTickers(redis, env.REDIS_PREFIX)),
    chain: chainConfigFromEnv(env),
    config: {
      uploadDir: env.UPLOAD_DIR,
      publicUrl: env.PUBLIC_URL,
      webDist: env.WEB_DIST,
      redisPrefix: env.REDIS_PREFIX,
      trustProxy: env.TRUST_PROXY,
      authRatePerMinute: env.RATE_LIMIT_AUTH_PER_MINUTE,
      logLevel: env.LOG_LEVEL,
      marketSocketProcesses: env.MARKET_SOCKET_PROCESSES,
    },
    async close() {
      await notifier.close();
      redis.disconnect();
      await closeDb();
    },
  };
}
