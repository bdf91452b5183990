// Registers the checks of policy values that name currencies and chains.
import "./policy-checks.ts";

export * from "./address-format.ts";
export * from "./addresses.ts";
export * from "./assets.ts";
export * from "./chain-deposits.ts";
export * from "./claims.ts";
export * from "./conversion-quotes.ts";
export * from "./deposits.ts";
export * from "./funding.table.ts";
export * from "./records.ts";
export * from "./review-queues.ts";
export * from "./transfers.ts";
export * from "./turnover.ts";
export * from "./withdrawals.ts";
