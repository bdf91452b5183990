import { domainEnv } from "@northstar/domain/env";
import { createEnv } from "@t3-oss/env-core";
import { z } from "zod";

/**
 * The shared server configuration plus the market feed's. A production start refuses a feed whose
 * prices are not live (the simulator, a replay) unless the operator declares the platform a sandbox
 * with SANDBOX=true: real money never settles on a price the platform made up.
 */
export const env = () => {
  const config = {
    ...domainEnv(),
    ...workerEnv(),
  };
  if (config.NODE_ENV === "production" && config.FEED_KIND !== "ccxt" && !config.SANDBOX) {
    throw new Error(
      `FEED_KIND=${config.FEED_KIND} gives prices that are not live market prices, and NODE_ENV=production ` +
        "may settle real money on them: run FEED_KIND=ccxt, or declare this platform a sandbox with SANDBOX=true",
    );
  }
  return config;
};

const workerEnv = () =>
  createEnv({
    server: {
      /** simulator (offline default), replay (recorded candles from FEED_REPLAY_DIR) or ccxt (live crypto). */
      FEED_KIND: z.enum(["simulator", "replay", "ccxt"]).default("simulator"),
      /**
       * The simulator's seed, for tests and replays of a recorded run only. Unset (the normal case),
       * the deployment draws one from a secure random source on its first start and keeps it.
       */
      FEED_SEED: z.string().min(1).optional(),
      /**
       * true declares a sandbox: prices are simulated or replayed and every page says so. Required in
       * production for any feed but ccxt.
       */
      SANDBOX: z
        .enum(["true", "false"])
        .default("false")
        .transform((v) => v === "true"),
      FEED_REPLAY_DIR: z.string().optional(),
      /** A ccxt exchange id, e.g. binance, okx, kraken. */
      FEED_EXCHANGE: z.string().default("binance"),
      FEED_INTERVAL_MS: z.coerce.number().int().min(100).max(60_000).default(1000),
      /**
       * Which roles this worker takes, comma-separated: notifications, market-feed, spot-matcher,
       * market-maker, custody-yield, launchpad-unlock, option-settlement, proof-publish, loan-overdue,
       * c2c-expiry, contract-risk, contract-overnight, contract-delivery, referral-rewards, chain-watcher
       * (only with CHAIN_RPC_URL set), hot-wallet (with CHAIN_RPC_URL and a hot-wallet key). Default all; a deployment
       * can give the matcher workers of its own.
       */
      WORKER_ROLES: z
        .string()
        .default(
          "notifications,market-feed,spot-matcher,market-maker,custody-yield,launchpad-unlock,option-settlement,proof-publish,loan-overdue,c2c-expiry,contract-risk,contract-overnight,contract-delivery,referral-rewards,chain-watcher,hot-wallet",
        )
        .transform((v) => new Set(v.split(",").map((r) => r.trim()))),
      /** How long a role's lease lives unrenewed: a standby takes over this long after a holder dies. */
      LEASE_TTL_MS: z.coerce.number().int().min(1000).max(120_000).default(10_000),
    },
    runtimeEnv: process.env,
    emptyStringAsUndefined: true,
  });
