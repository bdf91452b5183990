import { z } from "zod";
import { DECIMAL_STRING, MoneyDecimal } from "../money.ts";
import { err, zCalendarDay } from "./common.ts";
import { zAmount, zCurrency } from "./funding.ts";

/** Managed-earning product families (SPEC section 1: AI custody, VIP, ETF). */
export const EARN_FAMILIES = ["ai", "vip", "etf"] as const;
export const zEarnFamily = z.enum(EARN_FAMILIES);
export type TEarnFamily = z.infer<typeof zEarnFamily>;

/** Cycles of SPEC section 9: 7 days, 1 month, half a year, 1 year. */
export const EARN_CYCLES = [7, 30, 180, 365] as const;
export const EARN_RISK_LEVELS = ["conservative", "balanced", "aggressive"] as const;
export const EARN_REDEMPTION_RULES = ["percent", "remaining_days"] as const;

const zId = z.coerce.number(err("FIELD_INVALID")).int(err("FIELD_INVALID")).positive(err("FIELD_INVALID"));
/** A daily rate as a decimal share, e.g. 0.004 for 0.4% a day; below 10% a day. */
export const zDailyRate = z
  .string(err("FIELD_INVALID"))
  .trim()
  .regex(DECIMAL_STRING, err("FIELD_INVALID"))
  .refine((v) => /^0(\.\d{1,8})?$/.test(v) && new MoneyDecimal(v).lessThan("0.1"), err("FIELD_INVALID"));
/** A calendar day, UTC: YYYY-MM-DD. */
export const zDay = zCalendarDay;

export const ZEarnBuyRequestSchema = z.object({ product_id: zId, amount: zAmount });
export type TEarnBuyRequest = z.infer<typeof ZEarnBuyRequestSchema>;

export const ZEarnOrderRequestSchema = z.object({ order_id: zId });

export const ZEarnProductInputSchema = z
  .object({
    family: zEarnFamily,
    name: z.string(err("FIELD_INVALID")).trim().min(1, err("FIELD_INVALID")).max(80, err("FIELD_INVALID")),
    currency: zCurrency,
    cycle_days: z.coerce
      .number(err("FIELD_INVALID"))
      .int()
      .refine((v) => (EARN_CYCLES as readonly number[]).includes(v), err("FIELD_INVALID")),
    rate_min: zDailyRate,
    rate_max: zDailyRate,
    min_amount: zAmount,
    max_amount: zAmount,
    user_limit: zAmount,
    user_count: z.coerce.number(err("FIELD_INVALID")).int().min(1).max(1000),
    capacity: zAmount,
    risk_level: z.enum(EARN_RISK_LEVELS),
    redemption_rule: z.enum(EARN_REDEMPTION_RULES),
  })
  // Each names the field it refuses: without a path the refusal read "{{field}} is not valid".
  .refine((p) => new MoneyDecimal(p.rate_min).lessThanOrEqualTo(p.rate_max), {
    ...err("FIELD_INVALID"),
    path: ["rate_max"],
  })
  .refine((p) => new MoneyDecimal(p.min_amount).lessThanOrEqualTo(p.max_amount), {
    ...err("FIELD_INVALID"),
    path: ["max_amount"],
  });
export type TEarnProductInput = z.infer<typeof ZEarnProductInputSchema>;

export const ZEarnPublishRateSchema = z.object({ product_id: zId, day: zDay, rate: zDailyRate });
