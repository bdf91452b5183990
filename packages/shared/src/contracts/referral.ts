import { z } from "zod";
import { zCalendarDay } from "./common.ts";

/** A UTC calendar day, YYYY-MM-DD (an impossible one, 2026-02-30, is refused). */
export const zDay = zCalendarDay;

export const ZReferralRunRequestSchema = z.object({ day: zDay });
export type TReferralRunRequest = z.infer<typeof ZReferralRunRequestSchema>;

export const ZReferralPayoutsRequestSchema = z.object({
  day: zDay.optional(),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(50),
});
export type TReferralPayoutsRequest = z.infer<typeof ZReferralPayoutsRequestSchema>;
