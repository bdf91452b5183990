import type { DbOrTx } from "../db/client.ts";

// Placeholder until merge: the verification module's assertWithinRiskLimit (questionnaire risk level) replaces it.
export async function assertWithinRiskLimit(
  _db: DbOrTx,
  _userId: string,
  _amountUsdt: string,
): Promise<void> {}
