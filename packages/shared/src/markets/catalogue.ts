import { z } from "zod";
import { DECIMAL_STRING } from "../money.ts";

/** Asset classes of the catalogue, in the order the market pages list them. */
export const INSTRUMENT_CATEGORIES = [
  "crypto",
  "forex",
  "stocks",
  "indices",
  "etfs",
  "metals",
  "energy",
] as const;
export type InstrumentCategory = (typeof INSTRUMENT_CATEGORIES)[number];

/** What an instrument can be traded as. */
export const TRADING_KINDS = ["spot", "contract", "option"] as const;
export type TradingKind = (typeof TRADING_KINDS)[number];

/**
 * The kinds the platform actually trades today. An instrument's catalogue entry may already name
 * contract or option terms, but pages show them (and leverage) only once that kind's module ships;
 * add it here then.
 */
export const LIVE_TRADING_KINDS: readonly TradingKind[] = ["spot", "contract"];

/** The kinds of an instrument that can be traded today. */
export const liveKinds = (kinds: readonly TradingKind[]): TradingKind[] =>
  kinds.filter((k) => LIVE_TRADING_KINDS.includes(k));

/** Whether any leveraged product (contracts) is live: leverage is shown only then. */
export const leverageOffered = (): boolean => LIVE_TRADING_KINDS.includes("contract");

/** Whether an instrument has a spot market: an order book of ours, fed by the spot matcher. */
export const hasSpotMarket = (instrument: { kinds: readonly string[] }) => instrument.kinds.includes("spot");

/** SPEC section 9: prices are shown with 2, 4 or 6 decimals, chosen per instrument. */
export const DISPLAY_DECIMALS = [2, 4, 6] as const;

const clock = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$|^24:00$/, "FIELD_INVALID");

/**
 * When an instrument trades, as weekly sessions in a named time zone. A session runs on each listed
 * weekday (0 Sunday … 6 Saturday) from `open` to `close`, local time. No sessions means always open.
 * Holidays are not modelled.
 */
/** A time zone the runtime knows (an unknown one would make every open/closed check throw). */
function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

export const tradingHoursSchema = z.object({
  timeZone: z.string().min(1).max(64).refine(isTimeZone, "FIELD_INVALID"),
  sessions: z
    .array(
      z
        .object({
          days: z.array(z.number().int().min(0).max(6)).min(1).max(7),
          open: clock,
          close: clock,
        })
        // A session that closes before it opens would never be open.
        .refine((s) => s.close > s.open, { message: "FIELD_INVALID", path: ["close"] }),
    )
    .max(14),
});
export type TradingHours = z.infer<typeof tradingHoursSchema>;

export const ALWAYS_OPEN: TradingHours = { timeZone: "UTC", sessions: [] };

const symbolSchema = z
  .string()
  .trim()
  .regex(/^[A-Z0-9][A-Z0-9._-]{0,31}$/, "FIELD_INVALID");
const positiveDecimal = z
  .string()
  .trim()
  .regex(DECIMAL_STRING, "AMOUNT_INVALID")
  .refine((v) => Number(v) > 0, "AMOUNT_INVALID");

/**
 * The live price sources an instrument can be mapped to: "ccxt" (a crypto exchange) or "yahoo"
 * (Yahoo Finance: forex, stocks, indices, ETFs, metals, energy). An instrument with none has no live
 * price: real accounts may only view it, unless the platform is a declared sandbox.
 */
export const FEED_SOURCES = ["ccxt", "yahoo"] as const;
export type FeedSource = (typeof FEED_SOURCES)[number];

/** A symbol as its source spells it: "BTC/USDT", "EURUSD=X", "^GSPC", "GC=F", "BRK-B". */
const sourceSymbolSchema = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9^][A-Za-z0-9^=._/:-]{0,31}$/, "FIELD_INVALID");

/** An instrument as operators define it and as every screen reads it. */
export const instrumentInputSchema = z.object({
  symbol: symbolSchema,
  name: z.string().trim().min(1).max(80),
  category: z.enum(INSTRUMENT_CATEGORIES),
  base: z.string().trim().min(1).max(16),
  quote: z.string().trim().min(1).max(16),
  tickSize: positiveDecimal,
  lotSize: positiveDecimal,
  minQty: positiveDecimal,
  contractSize: positiveDecimal,
  maxLeverage: z.number().int().min(1).max(200),
  displayDecimals: z.union([z.literal(2), z.literal(4), z.literal(6)]),
  kinds: z.array(z.enum(TRADING_KINDS)).max(3),
  tradingHours: tradingHoursSchema,
  /** A recent real price level; the simulator starts here and charts are seeded around it. */
  referencePrice: positiveDecimal,
  /** Annualised volatility the simulator uses, e.g. "0.6" for 60%. */
  volatility: positiveDecimal,
  /** Where its live price comes from (null: none, view-only for real accounts outside a sandbox). */
  feedSource: z.enum(FEED_SOURCES).nullable().default(null),
  /** The instrument's symbol at that source. */
  sourceSymbol: sourceSymbolSchema.nullable().default(null),
  sort: z.number().int().min(0).max(1_000_000).default(0),
  enabled: z.boolean().default(true),
});
export type InstrumentInput = z.input<typeof instrumentInputSchema>;
export type Instrument = z.output<typeof instrumentInputSchema>;
