import { ContractRiskEngine } from "@northstar/domain/contracts";
import type { Db } from "@northstar/domain/db";
import { publishUserEvent } from "@northstar/domain/messages";
import type { Redis } from "ioredis";
import { runUnderLease } from "./leased.ts";

/** How often the engine looks for newly recorded ticks (the recorder writes every 200 ms). */
export const CONTRACT_RISK_POLL_MS = 50;

/**
 * Runs the contracts risk engine in exactly one worker: the holder of the `contract-risk` lease.
 * A standby takes over when the holder stops renewing; it resumes from the engine's stored cursor,
 * so no recorded tick is skipped and a trigger applied twice changes nothing the second time. Each
 * fill and close is announced on the owner's `user` channel.
 */
export function startContractRisk(
  db: Db,
  redis: Redis,
  options: { prefix: string; leaseTtlMs: number; log: (line: string) => void; pollMs?: number },
): { close(): Promise<void> } {
  const { prefix, log } = options;
  return runUnderLease(redis, `${prefix}:lease:contract-risk`, log, options.leaseTtlMs, async () => {
    const engine = new ContractRiskEngine(db, {
      log,
      onTriggered: (kind, position, userId) => {
        void publishUserEvent(redis, prefix, userId, { type: "contract.position", kind, position }).catch(
          () => {},
        );
      },
    });
    await engine.start();
    log(`contract risk engine started at tick ${engine.position}, ${await engine.watching()} positions`);
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
          log(`contract risk step failed: ${error instanceof Error ? error.message : error}`);
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
  });
}
