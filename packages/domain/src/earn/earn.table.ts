import { EARN_FAMILIES, EARN_REDEMPTION_RULES, EARN_RISK_LEVELS } from "@northstar/shared/contracts/earn";
import { EARN_CUSTODY_STATUSES } from "@northstar/shared/state-machines";
import { sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  check,
  date,
  index,
  integer,
  numeric,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";

const money = () => numeric({ precision: 38, scale: 18 });
const rate = () => numeric({ precision: 12, scale: 8 });

/**
 * A managed-earning product (AI custody, VIP, ETF). A fixed daily rate has rate_min = rate_max; a
 * range has each day's rate published in advance in earn_daily_rates. Limits are in the product's
 * currency; `sold` is the principal of every order bought, checked against `capacity`.
 */
export const earnProducts = pgTable(
  "earn_products",
  {
    id: bigserial({ mode: "number" }).primaryKey(),
    family: text({ enum: EARN_FAMILIES }).notNull(),
    name: text().notNull(),
    currency: text().notNull(),
    cycleDays: integer().notNull(),
    rateMin: rate().notNull(),
    rateMax: rate().notNull(),
    minAmount: money().notNull(),
    maxAmount: money().notNull(),
    userLimit: money().notNull(),
    userCount: integer().notNull(),
    capacity: money().notNull(),
    sold: money().notNull().default("0"),
    riskLevel: text({ enum: EARN_RISK_LEVELS }).notNull(),
    redemptionRule: text({ enum: EARN_REDEMPTION_RULES }).notNull(),
    onSale: text({ enum: ["on", "off"] })
      .notNull()
      .default("on"),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("earn_products_sold_within_capacity", sql`${t.sold} <= ${t.capacity}`),
    check("earn_products_rate_range", sql`${t.rateMin} <= ${t.rateMax}`),
  ],
);

/** A range product's rate for one day, published before the day starts and never changed. */
export const earnDailyRates = pgTable(
  "earn_daily_rates",
  {
    id: bigserial({ mode: "number" }).primaryKey(),
    productId: bigint({ mode: "number" }).notNull(),
    day: date({ mode: "string" }).notNull(),
    rate: rate().notNull(),
    publishedBy: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("earn_daily_rates_product_day").on(t.productId, t.day)],
);

/**
 * The statuses in custody as SQL literals: the partial index below and the daily job's query must
 * write the same predicate for the planner to use the index (a bound parameter would not match it).
 */
export const IN_CUSTODY = sql.raw(`(${EARN_CUSTODY_STATUSES.map((s) => `'${s}'`).join(", ")})`);

/**
 * A custody order (SPEC section 3): principal held in the `earn_custody` account from `startDay`;
 * yield day k (1 … cycleDays) is due from the start of startDay + k, and `paidDays` counts the days
 * paid. Maturity at startDay + cycleDays returns the principal.
 */
export const earnOrders = pgTable(
  "earn_orders",
  {
    id: bigserial({ mode: "number" }).primaryKey(),
    userId: bigint({ mode: "number" }).notNull(),
    productId: bigint({ mode: "number" }).notNull(),
    currency: text().notNull(),
    amount: money().notNull(),
    cycleDays: integer().notNull(),
    /** The rate shown when buying: the fixed rate, or the lower end of a range. */
    dailyRate: rate().notNull(),
    startDay: date({ mode: "string" }).notNull(),
    paidDays: integer().notNull().default(0),
    profit: money().notNull().default("0"),
    penalty: money(),
    status: text({ enum: ["holding", "redeeming", "redeemed", "completed", "redemption_rejected"] })
      .notNull()
      .default("holding"),
    redeemRequestedAt: timestamp({ withTimezone: true }),
    rejectReason: text(),
    reviewedBy: bigint({ mode: "number" }),
    closedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("earn_orders_user_idx").on(t.userId, t.createdAt),
    index("earn_orders_status_idx").on(t.status, t.id),
    // The daily job walks the orders in custody in id order, 2,000 at a time: this index yields them in
    // that order and stops at the batch's end, where (status, id) made it collect and sort every later order.
    index("earn_orders_custody_idx").on(t.id).where(sql`${t.status} in ${IN_CUSTODY}`),
    index("earn_orders_product_user_idx").on(t.productId, t.userId),
  ],
);

/** What the daily job paid for each product and day: the back office's yield report. */
export const earnYieldDays = pgTable(
  "earn_yield_days",
  {
    id: bigserial({ mode: "number" }).primaryKey(),
    orderId: bigint({ mode: "number" }).notNull(),
    productId: bigint({ mode: "number" }).notNull(),
    day: date({ mode: "string" }).notNull(),
    rate: rate().notNull(),
    amount: money().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("earn_yield_days_order_day").on(t.orderId, t.day),
    index("earn_yield_days_day_idx").on(t.day, t.productId),
  ],
);
