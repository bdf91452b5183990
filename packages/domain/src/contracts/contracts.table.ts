import { CONTRACT_SIDES } from "@northstar/shared/contracts/contracts";
import type { ContractPositionStatus } from "@northstar/shared/state-machines";
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
  primaryKey,
  text,
  timestamp,
} from "drizzle-orm/pg-core";
import { BOOKS } from "../ledger/index.ts";

const money = () => numeric({ precision: 38, scale: 18 });
const instant = () => timestamp({ withTimezone: true, precision: 3 });

/**
 * Feed prices as the worker received them, for instruments with contract products. Market orders
 * open at the latest row; the risk engine reads rows in id order and every trigger (TP, SL, limit
 * fill, liquidation, delivery) keeps the id of the row it used. Rows are never updated.
 */
export const contractTicks = pgTable(
  "contract_ticks",
  {
    id: bigserial({ mode: "number" }).primaryKey(),
    symbol: text().notNull(),
    price: money().notNull(),
    time: instant().notNull(),
    recordedAt: instant().notNull().defaultNow(),
  },
  (t) => [index("contract_ticks_symbol_time_idx").on(t.symbol, t.time, t.id)],
);

/**
 * A contract order and the position it becomes (isolated margin, USDT). `margin` is what the
 * position holds in the user's contract wallet's `held` bucket; a pending limit order also holds its
 * opening fee (`held_fee`) until it fills or is cancelled.
 */
export const contractPositions = pgTable(
  "contract_positions",
  {
    id: bigserial({ mode: "number" }).primaryKey(),
    userId: bigint({ mode: "number" }).notNull(),
    book: text({ enum: BOOKS }).notNull(),
    symbol: text().notNull(),
    productType: text({ enum: ["perpetual", "delivery"] }).notNull(),
    side: text({ enum: CONTRACT_SIDES }).notNull(),
    orderType: text({ enum: ["market", "limit"] }).notNull(),
    status: text().$type<ContractPositionStatus>().notNull(),
    lots: money().notNull(),
    originalLots: money().notNull(),
    contractSize: money().notNull(),
    leverage: integer().notNull(),
    limitPrice: money(),
    entryPrice: money(),
    margin: money().notNull(),
    initialMargin: money().notNull(),
    heldFee: money().notNull().default("0"),
    openFee: money().notNull().default("0"),
    closeFee: money().notNull().default("0"),
    overnightTotal: money().notNull().default("0"),
    realisedPnl: money().notNull().default("0"),
    takeProfit: money(),
    stopLoss: money(),
    maintenanceRate: money().notNull(),
    feeRate: money().notNull(),
    overnightRate: money().notNull(),
    /** The tick the position opened at (market) or filled at (limit); triggers use later ticks only. */
    openTickId: bigint({ mode: "number" }),
    exitPrice: money(),
    closeReason: text(),
    closeTickId: bigint({ mode: "number" }),
    expiresAt: instant(),
    /** Counts the position's margin and TP/SL changes: each one's ledger key names its number. */
    revision: integer().notNull().default(0),
    createdAt: instant().notNull().defaultNow(),
    openedAt: instant(),
    closedAt: instant(),
    updatedAt: instant().notNull().defaultNow(),
  },
  (t) => [
    index("contract_positions_user_idx").on(t.userId, t.id),
    index("contract_positions_live_idx").on(t.symbol, t.id).where(sql`${t.status} in ('pending', 'holding')`),
    index("contract_positions_updated_idx").on(t.updatedAt),
    check("contract_positions_lots_nonnegative", sql`${t.lots} >= 0`),
    check("contract_positions_margin_nonnegative", sql`${t.margin} >= 0`),
  ],
);
export type ContractPositionRow = typeof contractPositions.$inferSelect;

/** Each close of a position (full, partial, TP, SL, liquidation, delivery) and what it settled. */
export const contractCloses = pgTable(
  "contract_closes",
  {
    id: bigserial({ mode: "number" }).primaryKey(),
    positionId: bigint({ mode: "number" }).notNull(),
    userId: bigint({ mode: "number" }).notNull(),
    book: text({ enum: BOOKS }).notNull(),
    symbol: text().notNull(),
    lots: money().notNull(),
    price: money().notNull(),
    tickId: bigint({ mode: "number" }),
    /** user, take_profit, stop_loss, liquidation, delivery */
    reason: text().notNull(),
    pnl: money().notNull(),
    fee: money().notNull(),
    payout: money().notNull(),
    shortfall: money().notNull(),
    createdAt: instant().notNull().defaultNow(),
  },
  (t) => [
    index("contract_closes_position_idx").on(t.positionId, t.id),
    index("contract_closes_reason_idx").on(t.reason, t.id),
  ],
);

/** Overnight interest charged: one row per position and day, so a day is never charged twice. */
export const contractOvernight = pgTable(
  "contract_overnight",
  {
    positionId: bigint({ mode: "number" }).notNull(),
    day: date({ mode: "string" }).notNull(),
    price: money().notNull(),
    amount: money().notNull(),
    createdAt: instant().notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.positionId, t.day] })],
);

/** Where the risk engine has read the recorded ticks up to: a standby resumes after it. */
export const contractEngineCursor = pgTable("contract_engine_cursor", {
  name: text().primaryKey(),
  tickId: bigint({ mode: "number" }).notNull(),
  updatedAt: instant().notNull().defaultNow(),
});
