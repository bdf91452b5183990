import type { AppRouter } from "@northstar/api/trpc";
import type { inferRouterOutputs } from "@trpc/server";

type Outputs = inferRouterOutputs<AppRouter>;
export type Offering = Outputs["launchpad"]["offerings"][number];
export type SubscriptionRecord = Outputs["launchpad"]["records"][number];
/** A subscription as the back office lists it (with the subscriber's id). */
export type OfferingSubscription = Outputs["adminLaunchpad"]["subscriptions"][number];
