import { domainEnv } from "@northstar/domain/env";
import { createEnv } from "@t3-oss/env-core";
import { z } from "zod";

/** The shared server configuration plus the market feed's. */
export const env = () => ({
  ...domainEnv(),
  ...createEnv({
    server: {
      /** simulator (offline default), replay (recorded candles from FEED_REPLAY_DIR) or ccxt (live crypto). */
      FEED_KIND: z.enum(["simulator", "replay", "ccxt"]).default("simulator"),
      FEED_SEED: z.coerce.number().int().default(20261122),
      FEED_REPLAY_DIR: z.string().optional(),
      /** A ccxt exchange id, e.g. binance, okx, kraken. */
      FEED_EXCHANGE: z.string().default("binance"),
      FEED_INTERVAL_MS: z.coerce.number().int().min(100).max(60_000).default(1000),
      /**
       * Which roles this worker takes, comma-separated: notifications, market-feed, spot-matcher,
       * market-maker, custody-yield, launchpad-unlock, option-settlement, proof-publish, loan-overdue,
       * c2c-expiry, contract-risk, contract-overnight, contract-delivery. Default all; a deployment
       * can give the matcher workers of its own.
       */
      WORKER_ROLES: z
        .string()
        .default(
          "notifications,market-feed,spot-matcher,market-maker,custody-yield,launchpad-unlock,option-settlement,proof-publish,loan-overdue,c2c-expiry,contract-risk,contract-overnight,contract-delivery,referral-rewards",
        )
        .transform((v) => new Set(v.split(",").map((r) => r.trim()))),
      /** How long a role's lease lives unrenewed: a standby takes over this long after a holder dies. */
      LEASE_TTL_MS: z.coerce.number().int().min(1000).max(120_000).default(10_000),
    },
    runtimeEnv: process.env,
    emptyStringAsUndefined: true,
  }),
});
