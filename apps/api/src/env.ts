import { domainEnv } from "@northstar/domain/env";
import { createEnv } from "@t3-oss/env-core";
import { z } from "zod";

/** API configuration, validated at boot. See the configuration table in the README. */
export const env = () => {
  const domain = domainEnv();
  const api = createEnv({
    server: {
      PORT: z.coerce.number().int().min(1).max(65535).default(3000),
      HOST: z.string().default("0.0.0.0"),
      /** The built web app to serve on the same port; empty disables it. */
      WEB_DIST: z.string().default("apps/web/dist"),
      /** Behind a load balancer, trust X-Forwarded-For for client addresses (rate limits, audit). */
      TRUST_PROXY: z
        .enum(["true", "false"])
        .default("false")
        .transform((v) => v === "true"),
      /**
       * Per-IP requests of each call in any 60 seconds on login, code sending, registration, password
       * reset, demo accounts, operator and wallet sign-in (a sliding window).
       */
      RATE_LIMIT_AUTH_PER_MINUTE: z.coerce.number().int().min(1).default(30),
      /**
       * Password hashes (scrypt, tens of ms of a core each) computed at once per process; unset: one
       * fewer than the cores, at least one, so a login flood cannot take the event loop's core.
       */
      SECRET_HASH_CONCURRENCY: z.coerce.number().int().min(1).max(256).optional(),
      /** Hashes that may wait for one of those; beyond it (or half of it for anonymous work) SERVER_BUSY. */
      SECRET_HASH_QUEUE: z.coerce.number().int().min(1).max(10000).default(64),
      /**
       * Child processes the market socket's connections are spread over (0: served in this
       * process). Each socket write costs the kernel several µs, so tens of thousands of clients
       * per process need more than one core for their fan-out.
       */
      MARKET_SOCKET_PROCESSES: z.coerce.number().int().min(0).max(64).default(0),
      /** When set, `/metrics` answers only `Authorization: Bearer <token>` (Prometheus' bearer_token). */
      METRICS_TOKEN: z.string().min(16).optional(),
      LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
    },
    runtimeEnv: process.env,
    emptyStringAsUndefined: true,
  });
  return { ...domain, ...api };
};
export type ApiEnv = ReturnType<typeof env>;

/**
 * The deposit key of a sweep (`pnpm admin chain:sweep` only; no server or worker reads it): an
 * account-level extended private key or recovery phrase, in the variable or in a file it names.
 */
export const sweepKeyEnv = () =>
  createEnv({
    server: {
      CHAIN_SWEEP_KEY: z.string().optional(),
      CHAIN_SWEEP_KEY_FILE: z.string().optional(),
    },
    runtimeEnv: process.env,
    emptyStringAsUndefined: true,
  });
