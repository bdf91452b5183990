import { z } from "zod";
import { fitsNumeric } from "../money.ts";
import type { OptionOrderStatus } from "../state-machines/index.ts";
import { err } from "./common.ts";
import type { TPriceSource } from "./markets.ts";
import { zSymbol } from "./markets.ts";

export const OPTION_DIRECTIONS = ["up", "down"] as const;
export type TOptionDirection = (typeof OPTION_DIRECTIONS)[number];

/**
 * An investment amount in USDT. Zero or a negative amount is refused with "investment must be
 * greater than 0" (SPEC section 5); anything that is not a plain decimal with AMOUNT_INVALID.
 */
export const zInvestment = z
  .string(err("AMOUNT_INVALID"))
  .trim()
  .regex(/^-?\d+(\.\d+)?$/, err("AMOUNT_INVALID"))
  .refine((v) => !v.startsWith("-") && /[1-9]/.test(v), err("INVESTMENT_NOT_POSITIVE"))
  .refine((v) => fitsNumeric(v), err("AMOUNT_TOO_LARGE"));

export const ZBuyOptionRequestSchema = z.object({
  symbol: zSymbol,
  direction: z.enum(OPTION_DIRECTIONS, err("FIELD_INVALID")),
  amount: zInvestment,
  period_seconds: z.coerce
    .number(err("FIELD_INVALID"))
    .int(err("FIELD_INVALID"))
    .positive(err("FIELD_INVALID")),
});
export type TBuyOptionRequest = z.output<typeof ZBuyOptionRequestSchema>;

export const ZOptionOrderListRequestSchema = z.object({
  scope: z.enum(["open", "history"]).default("open"),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(20),
});

export const ZOptionOrderRequestSchema = z.object({ id: z.coerce.number().int().positive() });

/** One expiry period of a product as the user sees it before buying. */
export interface TOptionPeriod {
  seconds: number;
  payout_rate: string;
  fee_rate: string;
  min: string;
  max: string;
  /**
   * Whether an option bought now would expire inside the market's trading hours. One that would
   * expire while the market is closed has no price to settle on and is not sold.
   */
  expiry_open: boolean;
}

export interface TOptionProduct {
  symbol: string;
  name: string;
  display_decimals: number;
  open: boolean;
  tie: "refund" | "loss";
  periods: TOptionPeriod[];
}

/** An options order as screens show it; amounts are decimal strings, times ISO strings. */
export interface TOptionOrderView {
  id: number;
  symbol: string;
  direction: TOptionDirection;
  status: OptionOrderStatus;
  period_seconds: number;
  amount: string;
  fee: string;
  fee_rate: string;
  payout_rate: string;
  purchase_price: string;
  purchase_tick_time: string;
  purchased_at: string;
  expires_at: string;
  /** The recorded feed tick the order settled on (null while open, and for a void order: no tick came). */
  settlement_tick_id: number | null;
  settlement_price: string | null;
  settlement_tick_time: string | null;
  /** Where the settlement price came from (its recorded tick's source and source time); null while unsettled. */
  settlement_source: TPriceSource | null;
  settled_at: string | null;
  payout: string | null;
  /** payout − amount − fee once settled. */
  profit: string | null;
}
