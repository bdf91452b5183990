import type { Db } from "@northstar/domain/db";
import { releaseUnlocked } from "@northstar/domain/launchpad";

export interface UnlockCoinsDeps {
  db: Db;
  now: () => Date;
  log: (line: string) => void;
}

/**
 * Releases allocated new coins whose lock-up has ended. Each subscription is claimed by one
 * conditional update and released under a ledger key of its own, so a redelivered job releases
 * nothing twice; a worker that was down releases everything overdue on its next run.
 */
export async function processUnlockCoins(deps: UnlockCoinsDeps) {
  const result = await releaseUnlocked(deps.db, deps.now());
  if (result.released > 0) {
    deps.log(`launchpad-unlock: ${result.released} subscription(s) unlocked`);
  }
  return result;
}
