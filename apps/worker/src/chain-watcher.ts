import { assertExtendedPublicKey, type ChainConfig, chainClient, watchOnce } from "@northstar/domain/chain";
import type { Db } from "@northstar/domain/db";
import { createTickerPriceProvider, readTickers } from "@northstar/domain/markets";
import type { Redis } from "ioredis";
import { runUnderLease } from "./leased.ts";

/** How long the watcher rests when it has read the node's head (about a tenth of a mainnet block). */
export const CHAIN_WATCHER_IDLE_MS = 1000;

/**
 * Runs the chain watcher in exactly one worker: the holder of the `chain-watcher:<network>` lease. It
 * resumes from the last block it recorded, so a standby taking over, or a restart, loses and doubles
 * nothing. A chain whose node answers another chain id is refused at start.
 */
export function startChainWatcher(
  db: Db,
  redis: Redis,
  config: ChainConfig,
  options: {
    prefix: string;
    leaseTtlMs: number;
    log: (line: string) => void;
    idleMs?: number;
    /** CHAIN_START_BLOCK: where to start with nothing recorded (unset: the node's head). */
    startBlock?: bigint | undefined;
  },
): { close(): Promise<void> } {
  const { prefix, log } = options;
  if (config.xpub) {
    assertExtendedPublicKey(config.xpub);
  }
  const prices = createTickerPriceProvider(() => readTickers(redis, prefix));
  return runUnderLease(
    redis,
    `${prefix}:lease:chain-watcher:${config.network}`,
    log,
    options.leaseTtlMs,
    async () => {
      const client = chainClient(config);
      const chainId = await client.getChainId();
      if (chainId !== config.chainId) {
        throw new Error(`CHAIN_RPC_URL serves chain ${chainId}, not CHAIN_ID ${config.chainId}`);
      }
      log(`chain watcher for ${config.network} (chain ${chainId}) started`);
      let stopped = false;
      const loop = async () => {
        while (!stopped) {
          try {
            const pass = await watchOnce({ db, client, config, prices, log, startBlock: options.startBlock });
            if (pass.blocks === 0) {
              await new Promise((r) => setTimeout(r, options.idleMs ?? CHAIN_WATCHER_IDLE_MS));
            }
          } catch (error) {
            log(`chain watcher pass failed: ${error instanceof Error ? error.message : error}`);
            await new Promise((r) => setTimeout(r, options.idleMs ?? CHAIN_WATCHER_IDLE_MS));
          }
        }
      };
      const running = loop();
      return {
        async stop() {
          stopped = true;
          await running;
        },
      };
    },
  );
}
