export * from "./apikeys.table.ts";
export * from "./keys.ts";
export * from "./signing.ts";
