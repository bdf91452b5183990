export * from "./applications.ts";
export * from "./credit.ts";
export * from "./gates.ts";
export * from "./kyc.table.ts";
export * from "./review.ts";
export * from "./risk.ts";
export type { VerificationStatus } from "./status.ts";
