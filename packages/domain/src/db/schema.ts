// Re-exports every module's tables for the db client and drizzle-kit. Tables live in their module.
export * from "../admin/admin.table.ts";
export * from "../audit/audit.table.ts";
export * from "../content/content.table.ts";
export * from "../currencies/currencies.table.ts";
export * from "../earn/earn.table.ts";
export * from "../funding/funding.table.ts";
export * from "../idempotency/idempotency.table.ts";
export * from "../identity/identity.table.ts";
export * from "../identity/totp.table.ts";
export * from "../kyc/kyc.table.ts";
export * from "../launchpad/launchpad.table.ts";
export * from "../ledger/ledger.table.ts";
export * from "../markets/markets.table.ts";
export * from "../options/options.table.ts";
export * from "../policy/policy.table.ts";
export * from "../spot/spot.table.ts";
export * from "../uploads/uploads.table.ts";
