import { z } from "zod";
import { fitsNumeric } from "../money.ts";
import type { ContractPositionStatus } from "../state-machines/index.ts";
import { err } from "./common.ts";
import type { TPriceSource } from "./markets.ts";
import { zSymbol } from "./markets.ts";

export const CONTRACT_SIDES = ["long", "short"] as const;
export type TContractSide = (typeof CONTRACT_SIDES)[number];

/** A positive decimal (lots, a price, an amount), refused with AMOUNT_INVALID when it is not one. */
const zPositiveDecimal = z
  .string(err("AMOUNT_INVALID"))
  .trim()
  .regex(/^\d+(\.\d{1,18})?$/, err("AMOUNT_INVALID"))
  .refine((v) => /[1-9]/.test(v), err("AMOUNT_INVALID"))
  .refine((v) => fitsNumeric(v), err("AMOUNT_TOO_LARGE"));

/** An optional price: absent, empty or null means none. */
const zOptionalPrice = z.preprocess(
  (v) => (v === "" || v === null ? undefined : v),
  zPositiveDecimal.optional(),
);

export const ZOpenContractRequestSchema = z.object({
  symbol: zSymbol,
  side: z.enum(CONTRACT_SIDES, err("FIELD_INVALID")),
  order_type: z.enum(["market", "limit"], err("FIELD_INVALID")).default("market"),
  /** Required for a limit order; ignored for a market order. */
  price: zOptionalPrice,
  lots: zPositiveDecimal,
  leverage: z.coerce.number(err("FIELD_INVALID")).int(err("FIELD_INVALID")).positive(err("FIELD_INVALID")),
  take_profit: zOptionalPrice,
  stop_loss: zOptionalPrice,
});
export type TOpenContractRequest = z.output<typeof ZOpenContractRequestSchema>;

export const ZContractIdRequestSchema = z.object({ id: z.coerce.number().int().positive() });

export const ZCloseContractRequestSchema = z.object({
  id: z.coerce.number().int().positive(),
  /** Lots to close; absent closes all of them. */
  lots: zPositiveDecimal.optional(),
});
export type TCloseContractRequest = z.output<typeof ZCloseContractRequestSchema>;

export const ZAdjustMarginRequestSchema = z.object({
  id: z.coerce.number().int().positive(),
  direction: z.enum(["add", "reduce"], err("FIELD_INVALID")),
  amount: zPositiveDecimal,
});
export type TAdjustMarginRequest = z.output<typeof ZAdjustMarginRequestSchema>;

export const ZUpdateTpSlRequestSchema = z.object({
  id: z.coerce.number().int().positive(),
  take_profit: zOptionalPrice,
  stop_loss: zOptionalPrice,
});
export type TUpdateTpSlRequest = z.output<typeof ZUpdateTpSlRequestSchema>;

export const ZContractListRequestSchema = z.object({
  scope: z.enum(["holding", "pending", "history"]).default("holding"),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(20),
});
export type TContractListRequest = z.output<typeof ZContractListRequestSchema>;

/** A contract product as the user sees it before trading: every rule that can charge or close a position. */
export interface TContractProduct {
  symbol: string;
  name: string;
  category: string;
  type: "perpetual" | "delivery";
  expires_at: string | null;
  contract_size: string;
  lot_step: string;
  min_lots: string;
  max_lots: string;
  leverage: number[];
  fee_rate: string;
  overnight_rate: string;
  maintenance_rate: string;
  display_decimals: number;
  open: boolean;
}

/** A position or order with every field of SPEC section 3. */
export interface TContractPositionView {
  id: number;
  symbol: string;
  side: TContractSide;
  order_type: "market" | "limit";
  status: ContractPositionStatus;
  type: "perpetual" | "delivery";
  lots: string;
  original_lots: string;
  contract_size: string;
  leverage: number;
  limit_price: string | null;
  entry_price: string | null;
  margin: string;
  initial_margin: string;
  open_fee: string;
  close_fee: string;
  overnight_total: string;
  realised_pnl: string;
  take_profit: string | null;
  stop_loss: string | null;
  liquidation_price: string | null;
  maintenance_rate: string;
  fee_rate: string;
  overnight_rate: string;
  exit_price: string | null;
  close_reason: string | null;
  /** Where the final close's price came from (its recorded tick's source and source time). */
  close_source: TPriceSource | null;
  expires_at: string | null;
  created_at: string;
  opened_at: string | null;
  closed_at: string | null;
}

/** A close as recorded: which lots, at what price and tick, what it paid. */
export interface TContractCloseView {
  id: number;
  position_id: number;
  lots: string;
  price: string;
  tick_id: number | null;
  reason: string;
  pnl: string;
  fee: string;
  payout: string;
  shortfall: string;
  created_at: string;
}
