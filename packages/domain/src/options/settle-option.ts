import type { TOptionOrderView } from "@northstar/shared/contracts/options";
import { MoneyDecimal } from "@northstar/shared/money";
import { optionOutcome } from "@northstar/shared/options";
import { optionOrderMachine } from "@northstar/shared/state-machines";
import { and, asc, count, eq, lt, lte, or, sql } from "drizzle-orm";
import { currencyDecimals } from "../currencies/index.ts";
import type { Db } from "../db/client.ts";
import { accountIdCache, type EntryInput, postEntries, postEntry } from "../ledger/index.ts";
import { getPolicy } from "../policy/index.ts";
import { transition, transitionMany } from "../state/index.ts";
import { OPTION_CURRENCY } from "./buy-option.ts";
import { type OptionOrderRow, optionOrders, optionTicks } from "./options.table.ts";
import { toOptionView } from "./order-view.ts";
import { firstTickAtOrAfter, type RecordedTick } from "./ticks.ts";

/** An order settled now, as it ends, and its buyer (for the buyer's socket). */
export interface SettledOption {
  order: TOptionOrderView;
  userId: number;
}

export type SettleResult =
  /** Settled now: the order as it ends. */
  | ({ state: "settled" } & SettledOption)
  /** No tick within the policy's gap after the expiry: void now, amount and fee refunded. */
  | ({ state: "voided" } & SettledOption)
  /** Settled before (a repeated job): nothing changed. */
  | { state: "already"; order: TOptionOrderView }
  /** Not expired yet at `now`. */
  | { state: "not_due" }
  /** Expired, but no tick at or after the expiry is recorded yet, and the gap has not passed: try again later. */
  | { state: "waiting" }
  | { state: "missing" };

/**
 * The settlement of one order on its tick: the outcome, the columns it sets, and the payout's ledger
 * entry (none when nothing is paid). The entry's key is the order's, so an order is paid once.
 */
function settlementOf(order: OptionOrderRow, tick: RecordedTick, now: Date, decimals: number) {
  const outcome = optionOutcome(
    {
      direction: order.direction,
      amount: order.amount,
      fee: order.fee,
      payoutRate: order.payoutRate,
      tie: order.tieRule,
    },
    order.purchasePrice,
    tick.price,
    decimals,
  );
  const values = {
    settlementTickId: tick.id,
    settlementPrice: tick.price,
    settlementTickTime: tick.time,
    settledAt: new Date(Math.max(now.getTime(), tick.time.getTime())),
    payout: outcome.payout,
    profit: outcome.profit,
  };
  const entry: EntryInput | null = new MoneyDecimal(outcome.payout).gt(0)
    ? {
        idempotencyKey: `option.settle:${order.id}`,
        kind: `option.${outcome.status}`,
        reference: { type: "option_order", id: order.id },
        postings: [
          {
            account: { system: "options_house", book: order.book, currency: OPTION_CURRENCY },
            amount: `-${outcome.payout}`,
          },
          {
            account: { userId: order.userId, book: order.book, wallet: "option", currency: OPTION_CURRENCY },
            amount: outcome.payout,
          },
        ],
      }
    : null;
  return { status: outcome.status, values, entry };
}

/**
 * The void of an order no tick priced within the gap after its expiry: the amount and the fee go
 * back to the buyer in full under the settlement's ledger key, so an order is paid or refunded once.
 */
function voidOf(order: OptionOrderRow, now: Date) {
  const refund = new MoneyDecimal(order.amount).plus(order.fee).toFixed();
  const values = {
    settlementTickId: null,
    settlementPrice: null,
    settlementTickTime: null,
    settledAt: now,
    payout: refund,
    profit: "0",
  };
  const entry: EntryInput = {
    idempotencyKey: `option.settle:${order.id}`,
    kind: "option.void",
    reference: { type: "option_order", id: order.id },
    postings: [
      {
        account: { system: "options_house", book: order.book, currency: OPTION_CURRENCY },
        amount: `-${refund}`,
      },
      {
        account: { userId: order.userId, book: order.book, wallet: "option", currency: OPTION_CURRENCY },
        amount: refund,
      },
    ],
  };
  return { status: "void" as const, values, entry };
}

/** The last instant a tick may have to settle an order: its expiry plus the policy's gap. */
const settlementDeadline = (order: OptionOrderRow, gapSeconds: number) =>
  order.expiresAt.getTime() + gapSeconds * 1000;

/**
 * Settles one order with the first recorded tick at or after its expiry instant, never a later or an
 * invented price: pays the outcome through the ledger and records the tick's id, time and price.
 * A first tick more than `options.settlement.maxGapSeconds` after the expiry is no price for it:
 * once that gap has passed without one, the order is void and the amount and fee are refunded.
 * The row is locked and its state compared-and-set, and the payout's ledger key is the order's, so
 * a repeated call (or a batch racing it) pays once.
 */
export async function settleOption(db: Db, orderId: number, now = new Date()): Promise<SettleResult> {
  return db.transaction(async (tx) => {
    const [order] = await tx.select().from(optionOrders).where(eq(optionOrders.id, orderId)).for("update");
    if (!order) {
      return { state: "missing" };
    }
    if (order.status !== "open") {
      return { state: "already", order: toOptionView(order) };
    }
    if (order.expiresAt.getTime() > now.getTime()) {
      return { state: "not_due" };
    }
    const gap = await getPolicy(tx, "options.settlement.maxGapSeconds");
    const deadline = settlementDeadline(order, gap);
    const first = await firstTickAtOrAfter(tx, order.symbol, order.expiresAt);
    const tick = first && first.time.getTime() <= deadline ? first : null;
    if (!tick && now.getTime() <= deadline) {
      return { state: "waiting" };
    }
    const decimals = await currencyDecimals(tx, OPTION_CURRENCY);
    const { status, values, entry } = tick ? settlementOf(order, tick, now, decimals) : voidOf(order, now);
    const moved = await transition(tx, {
      machine: optionOrderMachine,
      table: optionOrders,
      id: order.id,
      from: "open",
      to: status,
      by: "system",
      set: { ...values, updatedAt: new Date() },
    });
    if (!moved) {
      return { state: "already", order: toOptionView(order) };
    }
    if (entry) {
      await postEntry(tx, entry);
    }
    return {
      state: status === "void" ? "voided" : "settled",
      order: toOptionView({ ...order, ...values, status }),
      userId: order.userId,
    };
  });
}

/**
 * One batch of the set-based settlement: up to `limit` open orders that expired by `now` and either
 * have a tick recorded within the gap after the expiry (settled on the first) or have none and the
 * gap has passed (void, refunded), oldest expiry first, settled in one transaction with
 * a fixed number of statements (one read of the orders, one of their ticks, one compare-and-set
 * update of their states, one ledger write of their payouts). Rows another settler holds are
 * skipped, not waited for, so settlers running side by side share the work; each row is still
 * compared-and-set and each payout keyed by its order, so nothing is settled or paid twice.
 */
export async function settleDueBatch(db: Db, now: Date, limit: number): Promise<SettledOption[]> {
  return db.transaction(async (tx) => {
    const gap = await getPolicy(tx, "options.settlement.maxGapSeconds");
    const orders = await tx
      .select()
      .from(optionOrders)
      .where(
        and(
          eq(optionOrders.status, "open"),
          lte(optionOrders.expiresAt, now),
          or(
            lt(optionOrders.expiresAt, new Date(now.getTime() - gap * 1000)),
            sql`exists (select 1 from ${optionTicks} t
              where t.symbol = ${optionOrders.symbol} and t.time >= ${optionOrders.expiresAt}
                and t.time <= ${optionOrders.expiresAt} + make_interval(secs => ${gap}))`,
          ),
        ),
      )
      .orderBy(asc(optionOrders.expiresAt), asc(optionOrders.id))
      .limit(limit)
      .for("update", { skipLocked: true });
    if (orders.length === 0) {
      return [];
    }
    // The first tick at or after each distinct (instrument, expiry): a burst shares few of them.
    const wanted = new Map<string, { symbol: string; at: string }>();
    for (const o of orders) {
      wanted.set(`${o.symbol}|${o.expiresAt.toISOString()}`, {
        symbol: o.symbol,
        at: o.expiresAt.toISOString(),
      });
    }
    const found = await tx.execute<{ symbol: string; at: string; id: string; price: string; time: Date }>(sql`
      select v.symbol, v.at, t.id, t.price, t.time
      from jsonb_to_recordset(${JSON.stringify([...wanted.values()])}::jsonb) as v(symbol text, at text)
      cross join lateral (
        select id, price, time from option_ticks
        where symbol = v.symbol and time >= v.at::timestamptz
          and time <= v.at::timestamptz + make_interval(secs => ${gap})
        order by time, id limit 1) t
      order by v.symbol, v.at`);
    const ticks = new Map<string, RecordedTick>();
    for (const row of found.rows) {
      ticks.set(`${row.symbol}|${row.at}`, {
        id: Number(row.id),
        symbol: row.symbol,
        price: String(row.price),
        time: new Date(row.time),
      });
    }
    const decimals = await currencyDecimals(tx, OPTION_CURRENCY);
    type Ending = { order: OptionOrderRow } & (ReturnType<typeof settlementOf> | ReturnType<typeof voidOf>);
    const settled = orders.flatMap((order): Ending[] => {
      const tick = ticks.get(`${order.symbol}|${order.expiresAt.toISOString()}`);
      if (tick) {
        return [{ order, ...settlementOf(order, tick, now, decimals) }];
      }
      return now.getTime() > settlementDeadline(order, gap) ? [{ order, ...voidOf(order, now) }] : [];
    });
    const moved = await transitionMany(tx, {
      machine: optionOrderMachine,
      table: "option_orders",
      by: "system",
      columns: {
        settlement_tick_id: "bigint",
        settlement_price: "numeric",
        settlement_tick_time: "timestamptz",
        settled_at: "timestamptz",
        payout: "numeric",
        profit: "numeric",
      },
      rows: settled.map(({ order, status, values }) => ({
        id: order.id,
        from: "open" as const,
        to: status,
        values: {
          settlement_tick_id: values.settlementTickId,
          settlement_price: values.settlementPrice,
          settlement_tick_time: values.settlementTickTime?.toISOString() ?? null,
          settled_at: values.settledAt.toISOString(),
          payout: values.payout,
          profit: values.profit,
        },
      })),
    });
    const done = settled.filter((s) => moved.has(s.order.id));
    await postEntries(
      tx,
      done.flatMap((s) => (s.entry ? [s.entry] : [])),
      accountIdCache(db),
    );
    return done.map(({ order, status, values }) => ({
      order: toOptionView({ ...order, ...values, status }),
      userId: order.userId,
    }));
  });
}

/** Orders settled per transaction by `settleDueOptions`. */
export const SETTLEMENT_BATCH = 2000;

/**
 * Settles every order that has expired by `now` and has its settlement tick recorded (or voids it
 * when none came within the gap), batch after batch; `onSettled` hears of each batch once it has committed. Returns how many it settled and how
 * many expired orders remain open (no tick at or after their expiry yet, or held by another settler).
 */
export async function settleDueOptions(
  db: Db,
  now = new Date(),
  onSettled?: (batch: SettledOption[]) => void,
  batchSize = SETTLEMENT_BATCH,
): Promise<{ settled: number; waiting: number }> {
  let settled = 0;
  for (;;) {
    const batch = await settleDueBatch(db, now, batchSize);
    if (batch.length > 0) {
      settled += batch.length;
      onSettled?.(batch);
    }
    if (batch.length < batchSize) {
      break;
    }
  }
  const [left] = await db
    .select({ n: count() })
    .from(optionOrders)
    .where(and(eq(optionOrders.status, "open"), lte(optionOrders.expiresAt, now)));
  return { settled, waiting: left?.n ?? 0 };
}
