import type { AppRouter } from "@northstar/api/trpc";
import type { inferRouterOutputs } from "@trpc/server";

type Outputs = inferRouterOutputs<AppRouter>;
export type C2cMerchant = Outputs["c2c"]["merchants"][number];
export type C2cOrder = Outputs["c2c"]["order"];
export type C2cQuote = Outputs["c2c"]["quote"];
export type C2cAdminMerchant = Outputs["c2cAdmin"]["merchants"][number];
export type C2cAdminOrder = Outputs["c2cAdmin"]["orders"]["list"][number];
