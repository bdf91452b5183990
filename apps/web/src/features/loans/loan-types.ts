import type { AppRouter } from "@northstar/api/trpc";
import type { inferRouterOutputs } from "@trpc/server";

type Outputs = inferRouterOutputs<AppRouter>;
export type LoanProduct = Outputs["loans"]["products"]["products"][number];
export type Loan = Outputs["loans"]["list"]["items"][number];
export type LoanDetail = Outputs["loans"]["get"];
export type LoanQuote = Outputs["loans"]["quote"];
