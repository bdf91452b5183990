import { sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  check,
  index,
  jsonb,
  numeric,
  pgTable,
  text,
  timestamp,
  uuid,
} from "drizzle-orm/pg-core";

const money = () => numeric({ precision: 38, scale: 18 });

/**
 * A merchant selling `coin` for `fiat` by bank wire. Its stock is held in the ledger: the system
 * account `c2c_escrow:<id>` holds what is free to sell, `c2c_reserved:<id>` what matched orders have
 * reserved. `stockAvailable` and `stockReserved` mirror those two balances, changed in the same
 * transaction as each entry; the row's CHECK and a conditional update make two orders racing for the
 * last stock reserve it once (tests compare the mirror with the ledger).
 */
export const c2cMerchants = pgTable(
  "c2c_merchants",
  {
    id: bigserial({ mode: "number" }).primaryKey(),
    name: text().notNull(),
    coin: text().notNull(),
    fiat: text().notNull(),
    /** Fiat per coin; an order locks the price it was created at. */
    price: money().notNull(),
    minFiat: money().notNull(),
    maxFiat: money().notNull(),
    payeeName: text().notNull(),
    bankName: text().notNull(),
    bankAccount: text().notNull(),
    bankBranch: text().notNull().default(""),
    note: text().notNull().default(""),
    stockAvailable: money().notNull().default("0"),
    stockReserved: money().notNull().default("0"),
    status: text({ enum: ["active", "paused"] })
      .notNull()
      .default("active"),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("c2c_merchants_stock_not_negative", sql`${t.stockAvailable} >= 0 and ${t.stockReserved} >= 0`),
    check("c2c_merchants_range", sql`${t.minFiat} <= ${t.maxFiat} and ${t.price} > 0`),
  ],
);

/** Stock an operator moved into (`fund`) or out of (`withdraw`) a merchant's escrow; one ledger entry each. */
export const c2cStockMoves = pgTable(
  "c2c_stock_moves",
  {
    id: bigserial({ mode: "number" }).primaryKey(),
    merchantId: bigint({ mode: "number" }).notNull(),
    kind: text({ enum: ["fund", "withdraw"] }).notNull(),
    amount: money().notNull(),
    actor: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("c2c_stock_moves_merchant_idx").on(t.merchantId, t.createdAt)],
);

/**
 * A user's purchase. The merchant, price and both amounts are fixed at creation; `expiresAt` is the
 * deadline for the proof (from the match, or from creation while unmatched).
 */
export const c2cOrders = pgTable(
  "c2c_orders",
  {
    id: bigserial({ mode: "number" }).primaryKey(),
    userId: bigint({ mode: "number" }).notNull(),
    merchantId: bigint({ mode: "number" }).notNull(),
    coin: text().notNull(),
    fiat: text().notNull(),
    price: money().notNull(),
    mode: text({ enum: ["fiat", "coin"] }).notNull(),
    fiatAmount: money().notNull(),
    coinAmount: money().notNull(),
    status: text({ enum: ["unmatched", "matched", "paid", "completed", "expired", "rejected", "cancelled"] })
      .notNull()
      .default("unmatched"),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    matchedAt: timestamp({ withTimezone: true }),
    proofUploadId: uuid(),
    proofNote: text(),
    paidAt: timestamp({ withTimezone: true }),
    completedAt: timestamp({ withTimezone: true }),
    expiredAt: timestamp({ withTimezone: true }),
    rejectedAt: timestamp({ withTimezone: true }),
    rejectReason: text(),
    decidedBy: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("c2c_orders_user_idx").on(t.userId, t.createdAt),
    index("c2c_orders_status_idx").on(t.status, t.expiresAt),
    index("c2c_orders_merchant_idx").on(t.merchantId, t.status, t.createdAt),
    check("c2c_orders_amounts_positive", sql`${t.fiatAmount} > 0 and ${t.coinAmount} > 0 and ${t.price} > 0`),
  ],
);

/** The user's own payment settings (SPEC section 3), one row per user. */
export const c2cPaymentSettings = pgTable("c2c_payment_settings", {
  userId: bigint({ mode: "number" }).primaryKey(),
  name: text().notNull(),
  bankName: text().notNull().default(""),
  bankNumber: text().notNull().default(""),
  alipayAccount: text().notNull().default(""),
  weixinNickname: text().notNull().default(""),
  weixinAccount: text().notNull().default(""),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/** The rules page per language (sanitised HTML), one row. */
export const c2cRules = pgTable("c2c_rules", {
  id: text().primaryKey(),
  texts: jsonb().$type<Record<string, { body: string }>>().notNull(),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});
