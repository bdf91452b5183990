// Adds the proof of liabilities' checks to every ledger reconciliation.
import "./reconcile-check.ts";

export * from "./assets-overview.ts";
export * from "./liabilities.ts";
export * from "./proofs.table.ts";
export * from "./publish.ts";
export { checkLiabilities } from "./reconcile-check.ts";
