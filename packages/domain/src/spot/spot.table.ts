import { ORDER_SIDES, ORDER_TYPES, TIME_IN_FORCE } from "@northstar/shared/contracts/spot";
import type { SpotOrderStatus } from "@northstar/shared/state-machines";
import { sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  check,
  index,
  integer,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { BOOKS } from "../ledger/index.ts";

const money = () => numeric({ precision: 38, scale: 18 });

/**
 * A spot order. The API writes it `pending` with its funds held (`held`, in `hold_currency`); the
 * matcher then owns it: fills add to `filled_qty`, `filled_quote` and `fee`, and spend or release
 * the hold, so that `held` is what the order still has frozen and is 0 once the order is finished.
 */
export const spotOrders = pgTable(
  "spot_orders",
  {
    id: bigserial({ mode: "number" }).primaryKey(),
    userId: bigint({ mode: "number" }).notNull(),
    book: text({ enum: BOOKS }).notNull(),
    symbol: text().notNull(),
    base: text().notNull(),
    quote: text().notNull(),
    side: text({ enum: ORDER_SIDES }).notNull(),
    type: text({ enum: ORDER_TYPES }).notNull(),
    timeInForce: text({ enum: TIME_IN_FORCE }).notNull(),
    /** The limit price; for a market buy by quantity, the protection price it may not pass. */
    price: money(),
    /** Base quantity; null for a market buy by quote amount. */
    quantity: money(),
    /** Quote budget of a market buy by quote amount. */
    quoteAmount: money(),
    filledQty: money().notNull().default("0"),
    filledQuote: money().notNull().default("0"),
    fee: money().notNull().default("0"),
    /** Fees are taken from what the order receives: base for a buy, quote for a sell. */
    feeCurrency: text().notNull(),
    holdCurrency: text().notNull(),
    held: money().notNull(),
    status: text().$type<SpotOrderStatus>().notNull().default("pending"),
    cancelReason: text(),
    /**
     * The order's place in its price level's queue: the matcher numbers orders and quotes as they
     * join a book, on from the highest number still resting. Ids follow the API's commits, and with
     * several API processes a higher id can reach the matcher first; a rebuilt book keeps its queue.
     */
    queueSeq: bigint({ mode: "number" }),
    /**
     * The client's idempotency key for the place request, and a hash of that request: a resent
     * order finds its first row here instead of being recorded twice (unique per user).
     */
    clientKey: text(),
    requestHash: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("spot_orders_user_idx").on(t.userId, t.id),
    uniqueIndex("spot_orders_user_client_key_idx")
      .on(t.userId, t.clientKey)
      .where(sql`${t.clientKey} is not null`),
    index("spot_orders_open_idx")
      .on(t.symbol, t.book, t.id)
      .where(sql`${t.status} in ('pending', 'open', 'partial')`),
    // Counting a user's open orders in a market (the limit per user) on every order.
    index("spot_orders_user_open_idx")
      .on(t.userId, t.symbol)
      .where(sql`${t.status} in ('pending', 'open', 'partial')`),
    check("spot_orders_held_not_negative", sql`${t.held} >= 0`),
  ],
);

/**
 * One fill between two orders of the same book. A side that is the market maker (a system account)
 * has no order or user: its ids are null.
 */
export const spotTrades = pgTable(
  "spot_trades",
  {
    id: bigserial({ mode: "number" }).primaryKey(),
    symbol: text().notNull(),
    book: text({ enum: BOOKS }).notNull(),
    price: money().notNull(),
    quantity: money().notNull(),
    quoteQty: money().notNull(),
    takerSide: text({ enum: ORDER_SIDES }).notNull(),
    makerOrderId: bigint({ mode: "number" }),
    takerOrderId: bigint({ mode: "number" }),
    makerUserId: bigint({ mode: "number" }),
    takerUserId: bigint({ mode: "number" }),
    makerFee: money().notNull(),
    takerFee: money().notNull(),
    /**
     * The fill's value in USDT, counted toward each side's withdrawal turnover (its users' real-book
     * fills); null where it does not count (the demo book, a market not quoted in USDT).
     */
    valueUsdt: money(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("spot_trades_symbol_idx").on(t.symbol, t.book, t.id),
    index("spot_trades_book_created_idx").on(t.book, t.createdAt),
    index("spot_trades_maker_user_idx").on(t.makerUserId, t.id),
    index("spot_trades_taker_user_idx").on(t.takerUserId, t.id),
  ],
);

/** How far the matcher has applied each market's command stream, committed with what it applied. */
export const spotStreamCursors = pgTable("spot_stream_cursors", {
  symbol: text().primaryKey(),
  lastId: text().notNull(),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/**
 * The market maker's resting quotes as the matcher last committed them (what is left of each, in its
 * queue place). They are not orders and have no rows in `spot_orders`; a rebuilt book puts them back
 * exactly, so fills taken from a ladder before a restart are not offered again. A place is unique
 * within its market and book: matchers of different shards number their markets' places each alone.
 */
export const spotQuotes = pgTable(
  "spot_quotes",
  {
    queueSeq: bigint({ mode: "number" }).notNull(),
    symbol: text().notNull(),
    book: text({ enum: BOOKS }).notNull(),
    side: text({ enum: ORDER_SIDES }).notNull(),
    price: money().notNull(),
    quantity: money().notNull(),
  },
  (t) => [primaryKey({ columns: [t.symbol, t.book, t.queueSeq] })],
);

/**
 * How many open orders (pending, open or partial) each user has in each market: what the open-order
 * limit is checked against on every order, kept exact where orders open and end. The intake adds the
 * orders it records (in the statement that records them, under the user and market's lock); the
 * matcher takes off those that end (in the transaction that ends them). Counting the orders instead
 * read every index entry a user's orders had left in the open-orders index, dead ones included:
 * about half the database's CPU per order on a busy book.
 */
export const spotOpenOrderCounts = pgTable(
  "spot_open_order_counts",
  {
    userId: bigint({ mode: "number" }).notNull(),
    symbol: text().notNull(),
    open: integer().notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.symbol] }),
    check("spot_open_order_counts_not_negative", sql`${t.open} >= 0`),
  ],
);
