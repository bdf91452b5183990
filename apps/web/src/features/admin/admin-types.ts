import type { AppRouter } from "@northstar/api/trpc";
import type { inferRouterInputs, inferRouterOutputs } from "@trpc/server";

/** The admin API's answers, as the web receives them (dates arrive as ISO strings). */
export type AdminOutputs = inferRouterOutputs<AppRouter>["admin"];
export type AdminInputs = inferRouterInputs<AppRouter>["admin"];

export type Operator = AdminOutputs["me"];
export type OperatorRole = Operator["role"];
export type DepositRow = AdminOutputs["deposits"][number];
export type WithdrawalRow = AdminOutputs["withdrawals"][number];
export type DepositAddressRow = AdminOutputs["depositAddresses"][number];
export type ChainAlertRow = AdminOutputs["chainAlerts"][number];
export type ChainSweepRow = AdminOutputs["chainSweeps"][number];
export type UserLookup = AdminOutputs["user"];
export type Reconciliation = AdminOutputs["reconcile"];
export type AuditRow = AdminOutputs["audit"][number];
export type InstrumentRow = AdminOutputs["instruments"]["items"][number];
