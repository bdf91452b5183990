import { pruneContractTicks } from "@northstar/domain/contracts";
import type { DeliverContractsDeps } from "./deliver-contracts.ts";

/**
 * Deletes the recorded contract ticks past the retention period that no position needs any more
 * (see pruneContractTicks). A redelivered or repeated run deletes nothing more.
 */
export async function processPruneContractTicks(deps: DeliverContractsDeps) {
  const result = await pruneContractTicks(deps.db, deps.now());
  if (result.deleted > 0) {
    deps.log(`contract-delivery: ${result.deleted} old contract ticks deleted`);
  }
  return result;
}
