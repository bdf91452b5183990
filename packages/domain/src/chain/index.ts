export * from "./config.ts";
export * from "./derivation.ts";
export * from "./hot-wallet.table.ts";
export * from "./hot-wallet.ts";
export * from "./payout-queue.ts";
export * from "./payouts.ts";
export * from "./withdrawal-broadcast.ts";
