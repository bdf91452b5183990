import { CONTRACT_SIDES } from "@northstar/shared/contracts/contracts";
import type { ContractPositionStatus } from "@northstar/shared/state-machines";
import { sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  boolean,
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
 * Feed prices as the worker received them, with their provenance, for instruments with contract products. Market orders
 * open at the latest row; the risk engine reads rows in id order and every trigger (TP, SL, limit
 * fill, liquidation, delivery) keeps the id of the row it used. Rows are never updated; old ones no
 * position needs any more are deleted by the retention job (see pruneContractTicks).
 */
export const contractTicks = pgTable(
  "contract_ticks",
  {
    id: bigserial({ mode: "number" }).primaryKey(),
    symbol: text().notNull(),
    price: money().notNull(),
    time: instant().notNull(),
    recordedAt: instant().notNull().defaultNow(),
    /** Where the price came from (see TickProvenance); null only on ticks recorded before it was kept. */
    source: text(),
    sourceSymbol: text(),
    sourceTime: instant(),
    sourceId: text(),
    receivedAt: instant(),
  },
  (t) => [
    index("contract_ticks_symbol_time_idx").on(t.symbol, t.time, t.id),
    index("contract_ticks_symbol_id_idx").on(t.symbol, t.id),
  ],
);

/** The liquidation price needs an entry, a positive quantity and a maintenance rate below 1. */
const LIQ_DEFINED = "entry_price is not null and lots * contract_size > 0 and maintenance_rate < 1";
/**
 * The liquidation rule (see isLiquidatable in contract-math) rounds the unrealised PnL down and the
 * maintenance margin up to 8 decimals, so it can fire up to 2e-8 USDT of equity before the plain
 * formula. The keys carry that slack (and a relative 1e-12 for the division), so a key is always
 * past the exact threshold: every tick that liquidates is found; the exact rule then decides.
 */
const LONG_LIQ_KEY = sql.raw(
  `case when ${LIQ_DEFINED} then ` +
    "((entry_price * (lots * contract_size) - margin + 0.00000002) / ((lots * contract_size) * (1 - maintenance_rate))) * 1.000000000001 + 0.000000000001 end",
);
const SHORT_LIQ_KEY = sql.raw(
  `case when ${LIQ_DEFINED} then ` +
    "((entry_price * (lots * contract_size) + margin - 0.00000002) / ((lots * contract_size) * (1 + maintenance_rate))) * 0.999999999999 - 0.000000000001 end",
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
    /**
     * The risk engine's trigger keys, kept by the database from the row itself (so no write can
     * leave them stale): a tick at or below `trigger_below` (a long's liquidation or stop-loss, a
     * short's take-profit, a long limit order) or at or above `trigger_above` may trigger; null when
     * the position is not live. They only select candidates; the exact decimal rule decides.
     */
    triggerBelow: numeric({ precision: 38, scale: 18 }).generatedAlwaysAs(
      sql`case
        when status = 'pending' and side = 'long' then limit_price
        when status = 'holding' and side = 'long' then greatest(${LONG_LIQ_KEY}, stop_loss)
        when status = 'holding' and side = 'short' then take_profit
      end`,
    ),
    triggerAbove: numeric({ precision: 38, scale: 18 }).generatedAlwaysAs(
      sql`case
        when status = 'pending' and side = 'short' then limit_price
        when status = 'holding' and side = 'short' then least(${SHORT_LIQ_KEY}, stop_loss)
        when status = 'holding' and side = 'long' then take_profit
      end`,
    ),
    /**
     * The risk engine has taken the position in: it evaluated it against every tick from its opening
     * tick up to its cursor, and evaluates it with each later tick. A position committed after the
     * engine read past its opening tick stays false until the engine replays those ticks for it.
     */
    riskWatched: boolean().notNull().default(false),
  },
  (t) => [
    index("contract_positions_user_idx").on(t.userId, t.id),
    index("contract_positions_live_idx").on(t.symbol, t.id).where(sql`${t.status} in ('pending', 'holding')`),
    index("contract_positions_updated_idx").on(t.updatedAt),
    index("contract_positions_open_tick_idx").on(t.openTickId),
    index("contract_positions_trigger_below_idx")
      .on(t.symbol, t.triggerBelow)
      .where(sql`${t.triggerBelow} is not null`),
    index("contract_positions_trigger_above_idx")
      .on(t.symbol, t.triggerAbove)
      .where(sql`${t.triggerAbove} is not null`),
    index("contract_positions_unwatched_idx")
      .on(t.id)
      .where(sql`not ${t.riskWatched} and ${t.status} in ('pending', 'holding')`),
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
    index("contract_closes_tick_idx").on(t.tickId),
  ],
);

/** Overnight interest charged: one row per position and day, so a day is never charged twice. */
export const contractOvernight = pgTable(
  "contract_overnight",
  {
    positionId: bigint({ mode: "number" }).notNull(),
    day: date({ mode: "string" }).notNull(),
    price: money().notNull(),
    /** The recorded tick the mark price came from (null on charges made before it was kept). */
    tickId: bigint({ mode: "number" }),
    amount: money().notNull(),
    createdAt: instant().notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.positionId, t.day] }), index("contract_overnight_tick_idx").on(t.tickId)],
);

/** Where the risk engine has read the recorded ticks up to: a standby resumes after it. */
export const contractEngineCursor = pgTable("contract_engine_cursor", {
  name: text().primaryKey(),
  tickId: bigint({ mode: "number" }).notNull(),
  updatedAt: instant().notNull().defaultNow(),
});
