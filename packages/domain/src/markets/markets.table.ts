import type { TradingHours } from "@northstar/shared/markets";
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
} from "drizzle-orm/pg-core";
import { users } from "../identity/index.ts";

const decimal = () => numeric({ precision: 38, scale: 18 });

/** The instrument catalogue. Operators add, edit and disable rows; nothing is ever deleted. */
export const instruments = pgTable(
  "instruments",
  {
    id: serial().primaryKey(),
    symbol: text().notNull().unique(),
    name: text().notNull(),
    category: text().notNull(),
    base: text().notNull(),
    quote: text().notNull(),
    tickSize: decimal().notNull(),
    lotSize: decimal().notNull(),
    minQty: decimal().notNull(),
    contractSize: decimal().notNull(),
    maxLeverage: integer().notNull(),
    displayDecimals: integer().notNull(),
    kinds: text().array().notNull(),
    tradingHours: jsonb().$type<TradingHours>().notNull(),
    referencePrice: decimal().notNull(),
    volatility: decimal().notNull(),
    /** The live price source ("ccxt", "yahoo") and the symbol there; null: no live price. */
    feedSource: text(),
    sourceSymbol: text(),
    sort: integer().notNull().default(0),
    enabled: boolean().notNull().default(true),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("instruments_category_sort").on(t.category, t.sort)],
);

/**
 * OHLCV candles. The worker writes 1-minute candles; longer periods are rolled up from shorter ones
 * (see markets/candles) and stored so a chart of any period is one indexed range read.
 */
export const candles = pgTable(
  "candles",
  {
    symbol: text().notNull(),
    period: text().notNull(),
    time: timestamp({ withTimezone: true }).notNull(),
    open: decimal().notNull(),
    high: decimal().notNull(),
    low: decimal().notNull(),
    close: decimal().notNull(),
    volume: decimal().notNull(),
  },
  (t) => [primaryKey({ columns: [t.symbol, t.period, t.time] })],
);

/** The user's favourite instruments: the "Optional" tab of the market list. */
export const marketFavourites = pgTable(
  "market_favourites",
  {
    userId: bigint({ mode: "number" })
      .notNull()
      .references(() => users.id),
    symbol: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.symbol] })],
);

/**
 * The market feed of this deployment, one row (`id` = `main`): which feed the worker runs now (the
 * web says "simulated prices" unless it is live) and the simulator's seed, drawn from a secure random
 * source on the first start and kept, so restarts and standbys continue the same walk. The seed is
 * never shown, logged or published: whoever knows it could compute the simulator's next price.
 */
export const marketFeedState = pgTable("market_feed_state", {
  id: text().primaryKey(),
  kind: text(),
  sandbox: boolean().notNull().default(false),
  simulatorSeed: text(),
  startedAt: timestamp({ withTimezone: true }),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/**
 * The health of each live price source the running feed uses, one row per source ("ccxt", "yahoo"),
 * written by the worker that runs the feed. `staleSince` is set while the source has given no new price
 * (no new source time) for longer than policy `feeds.staleAfterSeconds`, whether it fails or just goes
 * quiet: its markets then take no new orders or positions. Null again when a new price arrives.
 */
export const marketFeedSources = pgTable("market_feed_sources", {
  source: text().primaryKey(),
  /** The name the ticks carry, e.g. the exchange id "binance" for ccxt. */
  label: text().notNull(),
  /** Since when the source has given no new price; null while it is live. */
  staleSince: timestamp({ withTimezone: true }),
  /** The source's own time of its newest price. */
  lastSourceTime: timestamp({ withTimezone: true }),
  /** The last failure, when polling it fails. */
  lastError: text(),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});
