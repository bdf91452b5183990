import type { ChainConfig } from "@northstar/domain/chain";
import type { Db } from "@northstar/domain/db";
import type { PriceProvider } from "@northstar/domain/markets";
import type { Notifier } from "@northstar/domain/notifications";
import type { Redis } from "ioredis";

/** What every request handler needs; built once at boot, or per test file in tests. */
export interface AppDeps {
  db: Db;
  redis: Redis;
  notifier: Notifier;
  prices: PriceProvider;
  /** The watched EVM chain (CHAIN_RPC_URL set), or null/absent: crypto deposits take the manual path. */
  chain?: ChainConfig | null;
  /** Milliseconds since the epoch for the per-address limits; a test clock in tests, else Date.now. */
  clock?: () => number;
  config: {
    uploadDir: string;
    publicUrl: string;
    webDist: string;
    redisPrefix: string;
    trustProxy: boolean;
    authRatePerMinute: number;
    logLevel: string;
    /** Child processes serving the market socket; 0 or absent: this process serves it. */
    marketSocketProcesses?: number;
  };
}
