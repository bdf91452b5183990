import type { AppRouter } from "@northstar/api/trpc";
import type { inferRouterOutputs } from "@trpc/server";

type Outputs = inferRouterOutputs<AppRouter>;
export type EarnProduct = Outputs["earn"]["products"][number];
export type EarnOrder = Outputs["earn"]["orders"][number];
export type EarnTotals = Outputs["earn"]["totals"];
