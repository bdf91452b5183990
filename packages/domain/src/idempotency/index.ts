export * from "./idempotency.table.ts";
export * from "./run-once.ts";
