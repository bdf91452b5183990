import {
  buyProduct,
  type EarnOrderView,
  getUserOrder,
  getUserTotals,
  listProducts,
  listUserOrders,
  requestRedemption,
} from "@northstar/domain/earn";
import type { Authenticated } from "@northstar/domain/identity";
import { zEarnFamily } from "@northstar/shared/contracts/earn";
import { zAmount } from "@northstar/shared/contracts/funding";
import { z } from "zod";
import { defineLegacyCall } from "./define.ts";

const zId = z.coerce.number().int().positive();
const userOf = (auth: Authenticated | undefined) => {
  if (!auth) {
    throw new Error("auth required");
  }
  return auth.user;
};

/** A custody order in the legacy field names (SPEC section 3). */
const legacyOrder = (o: EarnOrderView) => ({
  id: o.id,
  order_no: o.orderNo,
  product_id: o.productId,
  product_name: o.productName,
  currency: o.currency,
  amount: o.amount,
  cycle_days: o.cycleDays,
  daily_rate: o.dailyRate,
  profit: o.profit,
  remaining_days: o.remainingDays,
  maturity_day: o.maturityDay,
  penalty: o.penalty,
  reject_reason: o.rejectReason,
  status: o.status,
  created_at: Math.floor(new Date(o.createdAt).getTime() / 1000),
});

/** web/getProfitTotal: principal in custody, profit earned, today's profit, orders in custody. */
export const getProfitTotal = defineLegacyCall({
  name: "getProfitTotal",
  auth: "required",
  input: z.object({}),
  async handle(ctx) {
    const t = await getUserTotals(ctx.deps.db, userOf(ctx.auth).id);
    return {
      data: { principal: t.principal, profit: t.profit, today_profit: t.todayProfit, orders: t.orders },
    };
  },
});

/**
 * web/getProfitList: without a session or with `type=product`, the products on sale (optionally
 * of one `family`); with a session and `type=order` (default when signed in), my orders, `page` by
 * `page_size`.
 */
export const getProfitList = defineLegacyCall({
  name: "getProfitList",
  auth: "optional",
  input: z.object({
    type: z.enum(["product", "order"]).optional(),
    family: zEarnFamily.optional(),
    page: z.coerce.number().int().min(1).max(10_000).default(1),
    page_size: z.coerce.number().int().min(1).max(100).default(20),
  }),
  async handle(ctx, input) {
    if (input.type === "product" || (!ctx.auth && input.type === undefined)) {
      return { data: { list: await listProducts(ctx.deps.db, input.family) } };
    }
    const user = userOf(ctx.auth);
    const list = await listUserOrders(ctx.deps.db, user.id, input.page, input.page_size);
    return { data: { list: list.map(legacyOrder), page: input.page } };
  },
});

/** web/getProfitInfo: one of my orders (`id`) with the early-redemption quote. */
export const getProfitInfo = defineLegacyCall({
  name: "getProfitInfo",
  auth: "required",
  input: z.object({ id: zId }),
  async handle(ctx, input) {
    const o = await getUserOrder(ctx.deps.db, userOf(ctx.auth).id, input.id);
    return {
      data: {
        ...legacyOrder(o),
        redemption_rule: o.redemptionRule,
        redemption_penalty: o.quote.penalty,
        redemption_returned: o.quote.returned,
      },
    };
  },
});

/** web/buyProfit: buys product `id` for `amount`; once per `rtoken`; event buyProfit (full response). */
export const buyProfit = defineLegacyCall({
  name: "buyProfit",
  auth: "required",
  event: "buyProfit",
  once: "earn.buy",
  input: z.object({ id: zId, amount: zAmount }),
  async handle(ctx, input) {
    const order = await buyProduct(
      ctx.deps.db,
      ctx.deps.prices,
      userOf(ctx.auth),
      { product_id: input.id, amount: input.amount },
      new Date(),
      ctx.once && {
        record: (tx, answer) =>
          ctx.once?.record(tx, legacyOrder(answer as EarnOrderView)) ?? Promise.resolve(),
      },
    );
    return { data: legacyOrder(order), messageKey: "earn.buyOk" };
  },
});

/** web/sellProfit: early redemption of my order `id` (settled at once, or queued for review by policy). */
export const sellProfit = defineLegacyCall({
  name: "sellProfit",
  auth: "required",
  input: z.object({ id: zId }),
  async handle(ctx, input) {
    const r = await requestRedemption(ctx.deps.db, userOf(ctx.auth), input.id);
    return { data: { id: input.id, status: r.status }, messageKey: "earn.redeemOk" };
  },
});
