import type { TOptionOrderView } from "@northstar/shared/contracts/options";
import { MoneyDecimal } from "@northstar/shared/money";
import { optionOutcome } from "@northstar/shared/options";
import { optionOrderMachine } from "@northstar/shared/state-machines";
import { and, asc, eq, lte } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { postEntry } from "../ledger/index.ts";
import { transition } from "../state/index.ts";
import { OPTION_CURRENCY } from "./buy-option.ts";
import { optionOrders } from "./options.table.ts";
import { toOptionView } from "./order-view.ts";
import { firstTickAtOrAfter } from "./ticks.ts";

export type SettleResult =
  /** Settled now: the order as it ends. */
  | { state: "settled"; order: TOptionOrderView; userId: number }
  /** Settled before (a repeated job): nothing changed. */
  | { state: "already"; order: TOptionOrderView }
  /** Not expired yet at `now`. */
  | { state: "not_due" }
  /** Expired, but no tick at or after the expiry is recorded yet: try again later. */
  | { state: "waiting" }
  | { state: "missing" };

/**
 * Settles one order with the first recorded tick at or after its expiry instant, never a later or an
 * invented price: pays the outcome through the ledger and records the tick's id, time and price.
 * The row is locked and its state compared-and-set, and the payout's ledger key is the order's, so
 * a job delivered twice (or a sweeper racing it) pays once.
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
    const tick = await firstTickAtOrAfter(tx, order.symbol, order.expiresAt);
    if (!tick) {
      return { state: "waiting" };
    }
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
    );
    const settledAt = new Date(Math.max(now.getTime(), tick.time.getTime()));
    const values = {
      settlementTickId: tick.id,
      settlementPrice: tick.price,
      settlementTickTime: tick.time,
      settledAt,
      payout: outcome.payout,
      profit: outcome.profit,
      updatedAt: new Date(),
    };
    const moved = await transition(tx, {
      machine: optionOrderMachine,
      table: optionOrders,
      id: order.id,
      from: "open",
      to: outcome.status,
      by: "system",
      set: values,
    });
    if (!moved) {
      return { state: "already", order: toOptionView(order) };
    }
    if (new MoneyDecimal(outcome.payout).gt(0)) {
      await postEntry(tx, {
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
      });
    }
    return {
      state: "settled",
      order: toOptionView({ ...order, ...values, status: outcome.status }),
      userId: order.userId,
    };
  });
}

/** Open orders whose expiry has passed at `now`, oldest expiry first (at most `limit`). */
export async function dueOptionIds(db: Db, now = new Date(), limit = 1000): Promise<number[]> {
  const rows = await db
    .select({ id: optionOrders.id })
    .from(optionOrders)
    .where(and(eq(optionOrders.status, "open"), lte(optionOrders.expiresAt, now)))
    .orderBy(asc(optionOrders.expiresAt), asc(optionOrders.id))
    .limit(limit);
  return rows.map((r) => r.id);
}

/**
 * The sweeper: settles every order that expired while no job ran (a worker down at expiry, a job
 * never enqueued). Each is settled like the job would, so running both is harmless.
 */
export async function settleDueOptions(
  db: Db,
  now = new Date(),
  onSettled?: (order: TOptionOrderView, userId: number) => void,
): Promise<{ settled: number; waiting: number }> {
  let settled = 0;
  let waiting = 0;
  for (const id of await dueOptionIds(db, now)) {
    const result = await settleOption(db, id, now);
    if (result.state === "settled") {
      settled++;
      onSettled?.(result.order, result.userId);
    } else if (result.state === "waiting") {
      waiting++;
    }
  }
  return { settled, waiting };
}
