import { runOvernightCharges } from "@northstar/domain/contracts";
import type { Db } from "@northstar/domain/db";

export interface ChargeOvernightDeps {
  db: Db;
  /** The instant a run charges up to; tests pass a test clock. */
  now: () => Date;
  log: (line: string) => void;
}

/**
 * Charges every holding contract position the overnight interest of each day due by now (the policy
 * hour, UTC), days missed while no worker ran included. Idempotent per position and day (a row per
 * position and day, and a ledger key naming both), so a redelivered job charges nothing twice.
 */
export async function processChargeOvernight(deps: ChargeOvernightDeps) {
  const result = await runOvernightCharges(deps.db, deps.now());
  if (result.charged > 0) {
    deps.log(`contract-overnight: ${result.charged} position-day(s) charged`);
  }
  return result;
}
