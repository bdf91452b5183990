import type { Db } from "@northstar/domain/db";
import { listDueOfferings, releaseUnlocked } from "@northstar/domain/launchpad";

export interface UnlockCoinsDeps {
  db: Db;
  now: () => Date;
  log: (line: string) => void;
}

/**
 * Lists the coins whose listing day has come (a spot market each), then releases allocated new
 * coins whose lock-up has ended. Each offering is listed and each subscription released once (a
 * conditional update claims it, the release has a ledger key of its own), so a redelivered job does
 * nothing twice; a worker that was down catches up on its next run.
 */
export async function processUnlockCoins(deps: UnlockCoinsDeps) {
  const listed = await listDueOfferings(deps.db, deps.now());
  if (listed.length > 0) {
    deps.log(`launchpad-unlock: listed ${listed.join(", ")}`);
  }
  const result = await releaseUnlocked(deps.db, deps.now());
  if (result.released > 0) {
    deps.log(`launchpad-unlock: ${result.released} subscription(s) unlocked`);
  }
  return { ...result, listed: listed.length };
}
