import type { AppRouter } from "@northstar/api/trpc";
import type { inferRouterOutputs } from "@trpc/server";

type Outputs = inferRouterOutputs<AppRouter>;
export type Offering = Outputs["launchpad"]["offerings"][number];
export type SubscriptionRecord = Outputs["launchpad"]["records"][number];
