import { z } from "zod";
import { INSTRUMENT_CATEGORIES, instrumentInputSchema } from "../markets/catalogue.ts";
import { CANDLE_PERIODS } from "../markets/periods.ts";
import { err } from "./common.ts";

export const zSymbol = z
  .string(err("INSTRUMENT_NOT_FOUND"))
  .trim()
  .toUpperCase()
  .regex(/^[A-Z0-9][A-Z0-9._-]{0,31}$/, err("INSTRUMENT_NOT_FOUND"));

/** Market list tabs: every instrument, those with contracts, those with a spot (exchange) market. */
export const MARKET_TABS = ["all", "contract", "exchange"] as const;

export const ZMarketListRequestSchema = z.object({
  tab: z.enum(MARKET_TABS).default("all"),
  category: z.enum(INSTRUMENT_CATEGORIES).optional(),
  search: z.string().trim().max(32).optional(),
  /** The Optional tab passes the user's favourites. */
  symbols: z.array(zSymbol).max(500).optional(),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  page_size: z.coerce.number().int().min(1).max(200).default(50),
});

export const ZSymbolRequestSchema = z.object({ symbol: zSymbol });

export const ZCandlesRequestSchema = z.object({
  symbol: zSymbol,
  period: z.enum(CANDLE_PERIODS),
  limit: z.coerce.number().int().min(1).max(1000).default(300),
  /** Only candles that start before this time (ms), for scrolling back. */
  before: z.coerce.number().int().positive().optional(),
});

export const ZFavouriteRequestSchema = z.object({ symbol: zSymbol, favourite: z.boolean() });

export const ZSaveInstrumentRequestSchema = instrumentInputSchema;
export const ZInstrumentEnabledRequestSchema = z.object({ symbol: zSymbol, enabled: z.boolean() });

/**
 * A recorded feed price and where it came from: the source, the source's symbol and time of the
 * price, its trade or quote id where it has one, and when the platform received it. Ticks recorded
 * before provenance was kept have null source fields.
 */
export interface TRecordedTick {
  id: number;
  symbol: string;
  price: string;
  time: string;
  source: string | null;
  source_symbol: string | null;
  source_time: string | null;
  source_id: string | null;
  received_at: string | null;
}

/** Where a settlement's price came from, shown beside it ("price … from <source> at …"). */
export type TPriceSource = Pick<TRecordedTick, "id" | "price" | "source" | "source_time" | "time">;
