export * from "./launchpad.table.ts";
export * from "./offerings.ts";
export * from "./listing.ts";
