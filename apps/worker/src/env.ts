import { domainEnv } from "@northstar/domain/env";
import { LIVE_FEED_KINDS } from "@northstar/domain/markets";
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
  if (config.NODE_ENV === "production" && !LIVE_FEED_KINDS.includes(config.FEED_KIND) && !config.SANDBOX) {
    throw new Error(
      `FEED_KIND=${config.FEED_KIND} gives prices that are not live market prices, and NODE_ENV=production ` +
        "may settle real money on them: run FEED_KIND=live (or ccxt, yahoo), or declare this platform a " +
        "sandbox with SANDBOX=true",
    );
  }
  return config;
};

const workerEnv = () =>
  createEnv({
    server: {
      /**
       * simulator (offline default), replay (recorded candles from FEED_REPLAY_DIR), ccxt (live crypto
       * from FEED_EXCHANGE), yahoo (live forex, stocks, indices, ETFs, metals, energy from Yahoo Finance)
       * or live (production: each instrument from the source the catalogue maps it to).
       */
      FEED_KIND: z.enum(["simulator", "replay", "ccxt", "yahoo", "live"]).default("simulator"),
      /**
       * The simulator's seed, for tests and replays of a recorded run only. Unset (the normal case),
       * the deployment draws one from a secure random source on its first start and keeps it.
       */
      FEED_SEED: z.string().min(1).optional(),
      /**
       * true declares a sandbox: prices are simulated or replayed and every page says so. Required in
       * production for any feed but live, ccxt and yahoo.
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
       * c2c-expiry, contract-risk, contract-overnight, contract-delivery, referral-rewards, ledger-reconcile,
       * chain-watcher (only with CHAIN_RPC_URL set), hot-wallet (with CHAIN_RPC_URL and a hot-wallet key). Default all; a deployment
       * can give the matcher workers of its own.
       */
      WORKER_ROLES: z
        .string()
        .default(
          "notifications,market-feed,spot-matcher,market-maker,custody-yield,launchpad-unlock,option-settlement,proof-publish,loan-overdue,c2c-expiry,contract-risk,contract-overnight,contract-delivery,referral-rewards,ledger-reconcile,chain-watcher,hot-wallet",
        )
        .transform((v) => new Set(v.split(",").map((r) => r.trim()))),
      /**
       * How many shards the spot markets are split over (a market's shard is a hash of its symbol
       * modulo this count); each shard has its own lease and matcher. Every worker must run the same
       * count. 1 (the default) is one matcher for every market.
       */
      SPOT_MATCHER_SHARDS: z.coerce.number().int().min(1).max(256).default(1),
      /** The most spot-matcher shards this worker holds at once; unset, every free shard it can. */
      SPOT_MATCHER_MAX_SHARDS: z.coerce.number().int().min(1).max(256).optional(),
      /**
       * How many shards the contracts risk engine is split over, by instrument (the same hash of the
       * symbol as the spot shards); each shard has its own lease, engine and cursor. Every worker must
       * run the same count. 1 (the default) is one engine for every instrument.
       */
      CONTRACT_RISK_SHARDS: z.coerce.number().int().min(1).max(256).default(1),
      /** The most contract-risk shards this worker holds at once; unset, every free shard it can. */
      CONTRACT_RISK_MAX_SHARDS: z.coerce.number().int().min(1).max(256).optional(),
      /** How long a role's lease lives unrenewed: a standby takes over this long after a holder dies. */
      LEASE_TTL_MS: z.coerce.number().int().min(1000).max(120_000).default(10_000),
      /**
       * The port of this worker's `/health`, `/ready` and `/metrics` (Prometheus); 0 (the default) serves
       * none, so that several workers on one machine do not collide. docker-compose sets 9464.
       */
      WORKER_HTTP_PORT: z.coerce.number().int().min(0).max(65535).default(0),
      WORKER_HTTP_HOST: z.string().default("0.0.0.0"),
      /** When set, `/metrics` answers only `Authorization: Bearer <token>`. */
      METRICS_TOKEN: z.string().min(16).optional(),
    },
    runtimeEnv: process.env,
    emptyStringAsUndefined: true,
  });
