import type { Db } from "@northstar/domain/db";
import { publishDailyProof } from "@northstar/domain/proofs";

export interface PublishProofDeps {
  db: Db;
  now: () => Date;
  log: (line: string) => void;
}

/**
 * Publishes the day's proof of liabilities unless one of the same UTC day exists, so a job delivered
 * twice (or the catch-up run at start on a day already published) publishes once.
 */
export async function processPublishProof(deps: PublishProofDeps) {
  const proof = await publishDailyProof(deps.db, deps.now());
  if (proof) {
    deps.log(`proof-publish: proof ${proof.id} over ${proof.leafCount} accounts, root ${proof.rootHash}`);
  }
  return proof ? proof.id : null;
}
