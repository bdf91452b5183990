export * from "./claims.ts";
export * from "./launchpad.table.ts";
export * from "./listing.ts";
export * from "./offerings.ts";
