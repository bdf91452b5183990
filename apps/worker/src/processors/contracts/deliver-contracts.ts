import { deliverDueContracts } from "@northstar/domain/contracts";
import type { Db } from "@northstar/domain/db";

export interface DeliverContractsDeps {
  db: Db;
  /** The instant a run delivers up to; tests pass a test clock. */
  now: () => Date;
  log: (line: string) => void;
}

/**
 * Settles every delivery contract expired by now at the first price recorded at or after its expiry,
 * expiries missed while no worker ran included. Idempotent per position (row lock and
 * compare-and-set), so a redelivered job settles nothing twice.
 */
export async function processDeliverContracts(deps: DeliverContractsDeps) {
  const result = await deliverDueContracts(deps.db, deps.now());
  if (result.delivered > 0 || result.waiting > 0) {
    deps.log(`contract-delivery: ${result.delivered} delivered, ${result.waiting} waiting for a price`);
  }
  return result;
}
