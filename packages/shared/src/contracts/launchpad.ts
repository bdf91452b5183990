import { z } from "zod";
import { MoneyDecimal } from "../money.ts";
import { err, zCalendarDay } from "./common.ts";
import { zAmount, zCurrency } from "./funding.ts";

const zId = z.coerce.number(err("FIELD_INVALID")).int(err("FIELD_INVALID")).positive(err("FIELD_INVALID"));
const zWhen = z.coerce.date(err("FIELD_INVALID"));

export const ZLaunchpadSubscribeSchema = z.object({ offering_id: zId, quantity: zAmount });
export type TLaunchpadSubscribe = z.infer<typeof ZLaunchpadSubscribeSchema>;

export const ZLaunchpadOfferingInputSchema = z.object({
  coin: zCurrency,
  name: z.string(err("FIELD_INVALID")).trim().min(1).max(80),
  pay_currency: zCurrency.default("USDT"),
  issue_price: zAmount,
  subscribe_price: zAmount,
  total_quantity: zAmount,
  min_quantity: zAmount,
  max_quantity: zAmount,
  starts_at: zWhen,
  ends_at: zWhen,
  lock_days: z.coerce.number(err("FIELD_INVALID")).int().min(0).max(3650),
  listing_day: zCalendarDay,
  circulation: zAmount,
});
export type TLaunchpadOfferingInput = z.infer<typeof ZLaunchpadOfferingInputSchema>;

/** Quantities of new coins are cut to this many decimals at allocation. */
export const LAUNCHPAD_QUANTITY_DECIMALS = 8;

/**
 * What `quantity` coins cost at `price`, rounded UP to the pay currency's `decimals`: what a
 * subscription freezes, and what the part that passed costs at the allocation (never more than was
 * frozen). The web shows the same figure before the user confirms.
 */
export function launchpadCost(
  quantity: string | MoneyDecimal,
  price: string,
  decimals: number,
): MoneyDecimal {
  return new MoneyDecimal(quantity).times(price).toDecimalPlaces(decimals, MoneyDecimal.ROUND_UP);
}
