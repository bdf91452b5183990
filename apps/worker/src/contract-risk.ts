import { ContractRiskEngine } from "@northstar/domain/contracts";
import type { Db } from "@northstar/domain/db";
import { publishUserEvent } from "@northstar/domain/messages";
import type { Redis } from "ioredis";
import { runShards } from "./leased.ts";

/** How often the engine looks for newly recorded ticks (the recorder writes every 200 ms). */
export const CONTRACT_RISK_POLL_MS = 50;

/**
 * Runs the contracts risk engine, split by instrument over `shards` shards (`shardOf(symbol,
 * shards)`), each under a lease of its own (`lease:contract-risk:<i>`): the holder of a shard's
 * lease runs its engine, with the shard's own cursor. A worker takes every free shard (up to
 * `maxShards`), none while workers with another shard count hold any (`runShards`); a standby takes
 * a dead holder's shards when their leases lapse and resumes from their stored cursors, so no
 * recorded tick is skipped and a trigger applied twice changes nothing the second time. Each fill
 * and close is announced on the owner's `user` channel.
 */
export function startContractRisk(
  db: Db,
  redis: Redis,
  options: {
    prefix: string;
    leaseTtlMs: number;
    log: (line: string) => void;
    pollMs?: number;
    shards?: number;
    maxShards?: number;
  },
): { close(): Promise<void> } {
  const { prefix, log } = options;
  const count = options.shards ?? 1;
  return runShards(
    redis,
    { prefix, role: "contract-risk", count, maxShards: options.maxShards, ttlMs: options.leaseTtlMs, log },
    async (index) => {
      const engine = new ContractRiskEngine(db, {
        log,
        shard: { index, count },
        onTriggered: (kind, position, userId) => {
          void publishUserEvent(redis, prefix, userId, { type: "contract.position", kind, position }).catch(
            () => {},
          );
        },
      });
      await engine.start();
      const name = count > 1 ? `contract risk engine ${index}/${count}` : "contract risk engine";
      log(`${name} started at tick ${engine.position}, ${await engine.watching()} positions`);
      let stopped = false;
      let running: Promise<void> = Promise.resolve();
      const loop = async () => {
        while (!stopped) {
          try {
            const read = await engine.step();
            if (read === 0) {
              await new Promise((r) => setTimeout(r, options.pollMs ?? CONTRACT_RISK_POLL_MS));
            }
          } catch (error) {
            log(`${name} step failed: ${error instanceof Error ? error.message : error}`);
            await new Promise((r) => setTimeout(r, 500));
          }
        }
      };
      running = loop();
      return {
        async stop() {
          stopped = true;
          await running;
        },
      };
    },
  );
}
