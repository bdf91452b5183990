import type { Db } from "@northstar/domain/db";
import { runDailyYield } from "@northstar/domain/earn";

export interface DailyYieldDeps {
  db: Db;
  /** The instant a run pays up to; tests pass a test clock. */
  now: () => Date;
  log: (line: string) => void;
}

/**
 * Pays every custody order's yield days due by now, and returns matured principals. Idempotent per
 * order and day (a ledger key per order and day, and the order's paid-day count under its row
 * lock), so a redelivered job or two overlapping runs pay nothing twice.
 */
export async function processDailyYield(deps: DailyYieldDeps) {
  const result = await runDailyYield(deps.db, deps.now());
  if (result.days > 0) {
    deps.log(`custody-yield ${result.day}: ${result.days} day(s) paid on ${result.orders} order(s)`);
  }
  return result;
}
