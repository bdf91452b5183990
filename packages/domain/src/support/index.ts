export * from "./support.table.ts";
export * from "./support.ts";
