import { OPTION_DIRECTIONS } from "@northstar/shared/contracts/options";
import type { OptionOrderStatus } from "@northstar/shared/state-machines";
import { sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  check,
  index,
  integer,
  numeric,
  pgTable,
  text,
  timestamp,
} from "drizzle-orm/pg-core";
import { BOOKS } from "../ledger/index.ts";

const money = () => numeric({ precision: 38, scale: 18 });
const instant = () => timestamp({ withTimezone: true, precision: 3 });

/**
 * Feed prices as the worker received them, with their provenance (source, the source's symbol, time
 * and trade or quote id, when the worker received it), for the instruments that have options products. A
 * purchase takes the latest row of its instrument, a settlement the first row at or after the
 * expiry instant; both keep the row's id, so a user can check either price against the chart.
 * Rows are never updated.
 */
export const optionTicks = pgTable(
  "option_ticks",
  {
    id: bigserial({ mode: "number" }).primaryKey(),
    symbol: text().notNull(),
    price: money().notNull(),
    /** The feed's time of the price. */
    time: instant().notNull(),
    recordedAt: instant().notNull().defaultNow(),
    /** Where the price came from (see TickProvenance); null only on ticks recorded before it was kept. */
    source: text(),
    sourceSymbol: text(),
    sourceTime: instant(),
    sourceId: text(),
    receivedAt: instant(),
  },
  (t) => [index("option_ticks_symbol_time_idx").on(t.symbol, t.time, t.id)],
);

/**
 * An options order. Bought `open` with `amount` + `fee` moved from the user's option wallet to the
 * options house account; settled once by the settlement job into `won`, `lost` or `tied` with the
 * first recorded tick at or after `expires_at`, and `payout` credited back through the ledger.
 */
export const optionOrders = pgTable(
  "option_orders",
  {
    id: bigserial({ mode: "number" }).primaryKey(),
    userId: bigint({ mode: "number" }).notNull(),
    book: text({ enum: BOOKS }).notNull(),
    symbol: text().notNull(),
    direction: text({ enum: OPTION_DIRECTIONS }).notNull(),
    periodSeconds: integer().notNull(),
    amount: money().notNull(),
    fee: money().notNull(),
    feeRate: money().notNull(),
    payoutRate: money().notNull(),
    tieRule: text({ enum: ["refund", "loss"] }).notNull(),
    purchaseTickId: bigint({ mode: "number" }).notNull(),
    purchasePrice: money().notNull(),
    purchaseTickTime: instant().notNull(),
    /** When the order was accepted; it expires `period_seconds` later. */
    purchasedAt: instant().notNull(),
    expiresAt: instant().notNull(),
    status: text().$type<OptionOrderStatus>().notNull().default("open"),
    settlementTickId: bigint({ mode: "number" }),
    settlementPrice: money(),
    settlementTickTime: instant(),
    /** The delivery time: when the payout was committed. */
    settledAt: instant(),
    payout: money(),
    profit: money(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("option_orders_user_idx").on(t.userId, t.id),
    index("option_orders_open_expiry_idx").on(t.expiresAt, t.id).where(sql`${t.status} = 'open'`),
    index("option_orders_settled_idx").on(t.settledAt, t.id),
    check("option_orders_amount_positive", sql`${t.amount} > 0`),
  ],
);
export type OptionOrderRow = typeof optionOrders.$inferSelect;
