export * from "./audit.table.ts";
export * from "./record-audit.ts";
