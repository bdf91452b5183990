import type { TEarnBuyRequest } from "@northstar/shared/contracts/earn";
import { MoneyDecimal } from "@northstar/shared/money";
import { EARN_CUSTODY_STATUSES, type EarnOrderStatus } from "@northstar/shared/state-machines";
import { and, count, desc, eq, inArray, sql, sum } from "drizzle-orm";
import { assertCurrencyAmount, currencyDecimals } from "../currencies/index.ts";
import type { Db, DbOrTx } from "../db/client.ts";
import { AppError } from "../errors.ts";
import type { OnceRecorder } from "../idempotency/index.ts";
import type { User } from "../identity/index.ts";
import { assertRiskLevelAllows, assertWithinRiskLimit } from "../kyc/index.ts";
import { postEntry } from "../ledger/index.ts";
import { type PriceProvider, valueInUsdt } from "../markets/index.ts";
import { getPolicy } from "../policy/index.ts";
import { addDays, daysDue, utcDay } from "./days.ts";
import { earnOrders, earnProducts, earnYieldDays } from "./earn.table.ts";
import { getProduct } from "./products.ts";

export type EarnOrder = typeof earnOrders.$inferSelect;

/**
 * One day's yield on a principal: amount × rate, cut (never rounded up) to the currency's decimals,
 * so every credit is an amount the user can move out whole; the cut stays with `earn_yield`.
 */
export function dayYield(amount: string, rate: string, decimals: number): string {
  return new MoneyDecimal(amount).times(rate).toDecimalPlaces(decimals, MoneyDecimal.ROUND_DOWN).toFixed();
}

/** The earnings estimate shown before buying: the low and high end over the whole cycle, as the days pay them. */
export function estimateEarnings(
  amount: string,
  rateMin: string,
  rateMax: string,
  cycleDays: number,
  decimals: number,
) {
  return {
    low: new MoneyDecimal(dayYield(amount, rateMin, decimals)).times(cycleDays).toFixed(),
    high: new MoneyDecimal(dayYield(amount, rateMax, decimals)).times(cycleDays).toFixed(),
  };
}

/** The estimate of a product on sale for an amount typed by the user (refused when finer than the currency). */
export async function estimateProductEarnings(db: DbOrTx, productId: number, amount: string) {
  const p = await getProduct(db, productId);
  const decimals = await assertCurrencyAmount(db, p.currency, amount, "amount");
  return estimateEarnings(amount, p.rateMin, p.rateMax, p.cycleDays, decimals);
}

/**
 * The early-redemption penalty: a policy share of the principal (`percent`) or the order's daily
 * rate × the days left × the principal (`remaining_days`), never more than the principal.
 */
export async function redemptionQuote(db: DbOrTx, order: EarnOrder, rule: string, now: Date) {
  const remainingDays = order.cycleDays - daysDue(order.startDay, order.cycleDays, now);
  const amount = new MoneyDecimal(order.amount);
  const raw =
    rule === "percent"
      ? amount.times(await getPolicy(db, "earn.redemption.percent"))
      : amount.times(order.dailyRate).times(remainingDays);
  // The penalty is paid by the user: rounded up to the currency's decimals, never above the principal.
  const decimals = await currencyDecimals(db, order.currency);
  const penalty = MoneyDecimal.min(raw.toDecimalPlaces(decimals, MoneyDecimal.ROUND_UP), amount);
  return {
    rule,
    remainingDays,
    penalty: penalty.toFixed(),
    returned: amount.minus(penalty).toFixed(),
  };
}

/**
 * A user buys: every limit is checked in one transaction that locks the product row (capacity) and
 * the user's orders of it (limit and count), then the principal moves from the exchange wallet to
 * the `earn_custody` account. Insufficient balance refuses the whole purchase.
 */
export async function buyProduct(
  db: Db,
  prices: PriceProvider,
  user: User,
  input: TEarnBuyRequest,
  now = new Date(),
  once?: OnceRecorder,
) {
  if (user.kind !== "real") {
    throw new AppError("REAL_ACCOUNT_REQUIRED");
  }
  const amount = new MoneyDecimal(input.amount);
  return db.transaction(async (tx) => {
    const [p] = await tx
      .select()
      .from(earnProducts)
      .where(eq(earnProducts.id, input.product_id))
      .for("update");
    if (p?.onSale !== "on") {
      throw new AppError("EARN_PRODUCT_NOT_FOUND", {}, "product_id");
    }
    await assertCurrencyAmount(tx, p.currency, amount, "amount");
    if (amount.lessThan(p.minAmount)) {
      throw new AppError("EARN_BELOW_MINIMUM", { min: new MoneyDecimal(p.minAmount).toFixed() }, "amount");
    }
    if (amount.greaterThan(p.maxAmount)) {
      throw new AppError("EARN_ABOVE_MAXIMUM", { max: new MoneyDecimal(p.maxAmount).toFixed() }, "amount");
    }
    const [mine] = await tx
      .select({ n: count(), total: sum(earnOrders.amount) })
      .from(earnOrders)
      .where(and(eq(earnOrders.productId, p.id), eq(earnOrders.userId, user.id)));
    if ((mine?.n ?? 0) >= p.userCount) {
      throw new AppError("EARN_USER_COUNT", { count: p.userCount });
    }
    if (amount.plus(mine?.total ?? 0).greaterThan(p.userLimit)) {
      throw new AppError("EARN_USER_LIMIT", { limit: new MoneyDecimal(p.userLimit).toFixed() }, "amount");
    }
    const remaining = new MoneyDecimal(p.capacity).minus(p.sold);
    if (amount.greaterThan(remaining)) {
      throw new AppError("EARN_CAPACITY", { remaining: remaining.toFixed() }, "amount");
    }
    const usdt = await valueInUsdt(prices, p.currency, amount.toFixed());
    if (usdt === null) {
      throw new AppError("PRICE_UNAVAILABLE");
    }
    await assertWithinRiskLimit(tx, String(user.id), usdt);
    await assertRiskLevelAllows(tx, user.id, p.riskLevel);
    const [order] = await tx
      .insert(earnOrders)
      .values({
        userId: user.id,
        productId: p.id,
        currency: p.currency,
        amount: amount.toFixed(),
        cycleDays: p.cycleDays,
        dailyRate: p.rateMin,
        startDay: utcDay(now),
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    if (!order) {
      throw new AppError("REQUEST_ERROR");
    }
    await tx
      .update(earnProducts)
      .set({ sold: sql`${earnProducts.sold} + ${amount.toFixed()}` })
      .where(eq(earnProducts.id, p.id));
    await postEntry(tx, {
      idempotencyKey: `earn:order:${order.id}:buy`,
      kind: "earn.buy",
      reference: { type: "earn_order", id: order.id },
      postings: [
        {
          account: { userId: user.id, book: "real", wallet: "exchange", currency: p.currency },
          amount: `-${amount.toFixed()}`,
        },
        { account: { system: "earn_custody", book: "real", currency: p.currency }, amount: amount.toFixed() },
      ],
    });
    const answer = orderView(order, p.name, now);
    await once?.record(tx, answer);
    return answer;
  });
}

/** A custody order as SPEC section 3 lists it: number, amount, cycle, rate, profit, days left, time, status. */
export function orderView(o: EarnOrder, productName: string, now = new Date()) {
  const inCustody = (EARN_CUSTODY_STATUSES as readonly string[]).includes(o.status);
  return {
    id: o.id,
    orderNo: `E${String(o.id).padStart(8, "0")}`,
    productId: o.productId,
    productName,
    currency: o.currency,
    amount: new MoneyDecimal(o.amount).toFixed(),
    cycleDays: o.cycleDays,
    dailyRate: new MoneyDecimal(o.dailyRate).toFixed(),
    profit: new MoneyDecimal(o.profit).toFixed(),
    paidDays: o.paidDays,
    remainingDays: inCustody ? o.cycleDays - daysDue(o.startDay, o.cycleDays, now) : 0,
    maturityDay: addDays(o.startDay, o.cycleDays),
    penalty: o.penalty === null ? null : new MoneyDecimal(o.penalty).toFixed(),
    rejectReason: o.rejectReason,
    status: o.status as EarnOrderStatus,
    createdAt: o.createdAt,
  };
}
export type EarnOrderView = ReturnType<typeof orderView>;

const withName = { order: earnOrders, name: earnProducts.name, rule: earnProducts.redemptionRule };

export async function listUserOrders(
  db: DbOrTx,
  userId: number,
  page: number,
  pageSize: number,
  statuses?: EarnOrderStatus[],
  now = new Date(),
) {
  const rows = await db
    .select(withName)
    .from(earnOrders)
    .innerJoin(earnProducts, eq(earnProducts.id, earnOrders.productId))
    .where(
      and(eq(earnOrders.userId, userId), statuses?.length ? inArray(earnOrders.status, statuses) : undefined),
    )
    .orderBy(desc(earnOrders.createdAt), desc(earnOrders.id))
    .limit(pageSize)
    .offset((page - 1) * pageSize);
  return rows.map((r) => orderView(r.order, r.name, now));
}

/** One of the user's own orders with its redemption quote; another user's id finds nothing. */
export async function getUserOrder(db: DbOrTx, userId: number, orderId: number, now = new Date()) {
  const [row] = await db
    .select(withName)
    .from(earnOrders)
    .innerJoin(earnProducts, eq(earnProducts.id, earnOrders.productId))
    .where(and(eq(earnOrders.id, orderId), eq(earnOrders.userId, userId)));
  if (!row) {
    throw new AppError("EARN_ORDER_NOT_FOUND", {}, "order_id");
  }
  return {
    ...orderView(row.order, row.name, now),
    redemptionRule: row.rule,
    quote: await redemptionQuote(db, row.order, row.rule, now),
  };
}

/** The user's totals: principal in custody, profit earned, the latest day's profit, orders held. */
export async function getUserTotals(db: DbOrTx, userId: number, now = new Date()) {
  const [held] = await db
    .select({ principal: sum(earnOrders.amount), n: count() })
    .from(earnOrders)
    .where(and(eq(earnOrders.userId, userId), inArray(earnOrders.status, [...EARN_CUSTODY_STATUSES])));
  const [earned] = await db
    .select({ profit: sum(earnOrders.profit) })
    .from(earnOrders)
    .where(eq(earnOrders.userId, userId));
  const [today] = await db
    .select({ profit: sum(earnYieldDays.amount) })
    .from(earnYieldDays)
    .innerJoin(earnOrders, eq(earnOrders.id, earnYieldDays.orderId))
    .where(and(eq(earnOrders.userId, userId), eq(earnYieldDays.day, utcDay(now))));
  return {
    principal: new MoneyDecimal(held?.principal ?? 0).toFixed(),
    orders: held?.n ?? 0,
    profit: new MoneyDecimal(earned?.profit ?? 0).toFixed(),
    todayProfit: new MoneyDecimal(today?.profit ?? 0).toFixed(),
  };
}
