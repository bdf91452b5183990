import { z } from "zod";
import type { SpotOrderStatus } from "../state-machines/index.ts";
import { err, zTradePassword } from "./common.ts";
import { zAmount } from "./funding.ts";
import { zSymbol } from "./markets.ts";

export const ORDER_SIDES = ["buy", "sell"] as const;
export const ORDER_TYPES = ["limit", "market"] as const;
/** gtc rests what does not fill; ioc cancels the rest; post_only is refused when it would trade. */
export const TIME_IN_FORCE = ["gtc", "ioc", "post_only"] as const;
export type TOrderSide = (typeof ORDER_SIDES)[number];
export type TOrderType = (typeof ORDER_TYPES)[number];
export type TTimeInForce = (typeof TIME_IN_FORCE)[number];

/**
 * A spot order. Limit orders give `price` and `quantity` (base currency). Market sells give
 * `quantity`; market buys give either `quantity` (bought at most `spot.marketProtection` above the
 * best ask) or `quote_amount` (spend at most this much of the quote currency).
 */
export const ZPlaceOrderRequestSchema = z
  .object({
    symbol: zSymbol,
    side: z.enum(ORDER_SIDES, err("FIELD_INVALID")),
    type: z.enum(ORDER_TYPES, err("FIELD_INVALID")),
    time_in_force: z.enum(TIME_IN_FORCE, err("FIELD_INVALID")).default("gtc"),
    price: zAmount.optional(),
    quantity: zAmount.optional(),
    quote_amount: zAmount.optional(),
    trade_password: zTradePassword.optional(),
  })
  .superRefine((order, ctx) => {
    const require = (field: "price" | "quantity" | "quote_amount") =>
      ctx.addIssue({ code: "custom", path: [field], message: "FIELD_REQUIRED" });
    if (order.type === "limit") {
      if (order.price === undefined) {
        require("price");
      }
      if (order.quantity === undefined) {
        require("quantity");
      }
      return;
    }
    if (order.side === "sell" && order.quantity === undefined) {
      require("quantity");
    }
    if (order.side === "buy" && (order.quantity === undefined) === (order.quote_amount === undefined)) {
      require(order.quantity === undefined ? "quote_amount" : "quantity");
    }
  });
export type TPlaceOrderRequest = z.output<typeof ZPlaceOrderRequestSchema>;

export const ZCancelOrderRequestSchema = z.object({ id: z.coerce.number().int().positive() });

/** `open`: orders that can still trade; `history`: finished ones (filled, cancelled, rejected). */
export const ZOrderListRequestSchema = z.object({
  scope: z.enum(["open", "history"]).default("open"),
  symbol: zSymbol.optional(),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(20),
});

export const ZFillListRequestSchema = z.object({
  symbol: zSymbol.optional(),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(20),
});

/** What screens show of an order. Amounts are decimal strings; `avg_price` is null until a fill. */
export interface TSpotOrderView {
  id: number;
  symbol: string;
  base: string;
  quote: string;
  side: TOrderSide;
  type: TOrderType;
  time_in_force: TTimeInForce;
  price: string | null;
  quantity: string | null;
  quote_amount: string | null;
  filled_qty: string;
  filled_quote: string;
  avg_price: string | null;
  fee: string;
  fee_currency: string;
  status: SpotOrderStatus;
  cancel_reason: string | null;
  created_at: string;
  updated_at: string;
}

/** One of the user's fills. */
export interface TSpotFillView {
  id: number;
  order_id: number;
  symbol: string;
  side: TOrderSide;
  role: "maker" | "taker";
  price: string;
  quantity: string;
  quote_qty: string;
  fee: string;
  fee_currency: string;
  created_at: string;
}

/** A user-channel event of the market socket about a spot order. */
export interface TSpotOrderEvent {
  type: "spot.order";
  order: TSpotOrderView;
}
