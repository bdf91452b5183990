export * from "./admin.table.ts";
export * from "./lookup.ts";
export * from "./manage-operators.ts";
export * from "./seed-operator.ts";
