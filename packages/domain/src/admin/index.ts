export * from "./admin.table.ts";
export * from "./lookup.ts";
export * from "./manage-operators.ts";
export * from "./operator-accounts.ts";
export * from "./operator-totp.ts";
export * from "./seed-operator.ts";
