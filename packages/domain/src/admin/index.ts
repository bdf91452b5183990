export * from "./admin.table.ts";
export * from "./manage-operators.ts";
export * from "./record-audit.ts";
