export * from "./balances.ts";
export * from "./ledger.table.ts";
export * from "./post-entry.ts";
export * from "./reconcile.ts";
export * from "./reconcile-runs.ts";
export * from "./statements.ts";
export * from "./system-accounts.ts";
