export * from "./launchpad.table.ts";
export * from "./offerings.ts";
