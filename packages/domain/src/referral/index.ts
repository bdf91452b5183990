export * from "./promotion.ts";
export * from "./referral.table.ts";
export * from "./run-rewards.ts";
