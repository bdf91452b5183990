import type { DbOrTx } from "../db/client.ts";

// Placeholder: the verification module's assertWithinRiskLimit replaces this at merge.
export async function assertWithinRiskLimit(
  _db: DbOrTx,
  _userId: string,
  _amountUsdt: string,
): Promise<void> {}
