import { z } from "zod";
import { zAmount, zCurrency } from "./funding.ts";

/** A browser's IANA time zone (Intl): the user's calendar day until their first claim fixes it. */
const zTimeZoneName = z.string().trim().min(1).max(64);

export const ZSignInStatusRequestSchema = z.object({ time_zone: zTimeZoneName.optional() });
export type TSignInStatusRequest = z.infer<typeof ZSignInStatusRequestSchema>;

export const ZSignInClaimRequestSchema = z.object({ time_zone: zTimeZoneName.optional() });
export type TSignInClaimRequest = z.infer<typeof ZSignInClaimRequestSchema>;

/** An operator adds money to the marketing budget that pays sign-in rewards. */
export const ZMarketingBudgetFundRequestSchema = z.object({
  currency: zCurrency,
  amount: zAmount,
});
export type TMarketingBudgetFundRequest = z.infer<typeof ZMarketingBudgetFundRequestSchema>;
