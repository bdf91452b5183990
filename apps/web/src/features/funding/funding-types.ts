import type { AppRouter } from "@northstar/api/trpc";
import type { inferRouterOutputs } from "@trpc/server";

type Outputs = inferRouterOutputs<AppRouter>;
export type DepositOption = Outputs["deposit"]["options"]["addresses"][number];
export type DepositRecord = Outputs["deposit"]["getMany"][number];
export type WithdrawalRecord = Outputs["withdrawal"]["getMany"][number];
export type WithdrawalTerms = Outputs["withdrawal"]["terms"];
export type WithdrawalAddress = Outputs["withdrawalAddress"]["getMany"][number];
export type BankCard = Outputs["bankCard"]["getMany"][number];

/** The chains a withdrawal address may be on; the server checks the address format of each. */
export const CHAINS = ["ERC20", "TRC20", "BEP20", "BTC", "SOL", "XRP", "LTC", "DOGE"] as const;

/** Records are listed 20 to a page. */
export const PAGE_SIZE = 20;
