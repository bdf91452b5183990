import {
  approveRedemption,
  buyProduct,
  createProduct,
  estimateProductEarnings,
  getProduct,
  getUserOrder,
  getUserTotals,
  listOrdersForReview,
  listProducts,
  listPublishedRates,
  listUserOrders,
  orderView,
  publishRate,
  rejectRedemption,
  requestRedemption,
  runDailyYield,
  setProductOnSale,
  yieldReport,
} from "@northstar/domain/earn";
import {
  ZEarnBuyRequestSchema,
  ZEarnOrderRequestSchema,
  ZEarnProductInputSchema,
  ZEarnPublishRateSchema,
  zEarnFamily,
} from "@northstar/shared/contracts/earn";
import { ZPageRequestSchema, zAmount } from "@northstar/shared/contracts/funding";
import { earnOrderMachine } from "@northstar/shared/state-machines";
import { z } from "zod";
import { onceByKey } from "../../idempotency.ts";
import { authedProcedure, moneyProcedure, operatorProcedure, publicProcedure, router } from "../../init.ts";

const zId = z.object({ id: z.coerce.number().int().positive() });
const zStatuses = z.array(z.enum(earnOrderMachine.states)).max(5).optional();

/** Managed earning for users: products per family, the estimate, buying, my orders, redemption. */
export const earnRouter = router({
  products: publicProcedure
    .input(z.object({ family: zEarnFamily.optional() }))
    .query(({ ctx, input }) => listProducts(ctx.deps.db, input.family)),
  product: publicProcedure.input(zId).query(({ ctx, input }) => getProduct(ctx.deps.db, input.id)),
  estimate: publicProcedure
    .input(z.object({ id: z.coerce.number().int().positive(), amount: zAmount }))
    .query(({ ctx, input }) => estimateProductEarnings(ctx.deps.db, input.id, input.amount)),
  buy: moneyProcedure
    .input(ZEarnBuyRequestSchema)
    .mutation(({ ctx, input }) =>
      onceByKey(ctx, "earn.buy", input, (once) =>
        buyProduct(ctx.deps.db, ctx.deps.prices, ctx.auth.user, input, new Date(), once),
      ),
    ),
  totals: authedProcedure.query(({ ctx }) => getUserTotals(ctx.deps.db, ctx.auth.user.id)),
  orders: authedProcedure
    .input(ZPageRequestSchema.extend({ statuses: zStatuses }))
    .query(({ ctx, input }) =>
      listUserOrders(ctx.deps.db, ctx.auth.user.id, input.page, input.page_size, input.statuses),
    ),
  order: authedProcedure
    .input(ZEarnOrderRequestSchema)
    .query(({ ctx, input }) => getUserOrder(ctx.deps.db, ctx.auth.user.id, input.order_id)),
  redeem: moneyProcedure
    .input(ZEarnOrderRequestSchema)
    .mutation(({ ctx, input }) =>
      onceByKey(ctx, "earn.redeem", input, () =>
        requestRedemption(ctx.deps.db, ctx.auth.user, input.order_id),
      ),
    ),
});

const productsRead = operatorProcedure("products.read");
const productsOperate = operatorProcedure("products.operate");
const catalogue = operatorProcedure("catalogue.manage");
const actor = (op: { id: number; username: string }) => (op.id === 0 ? "cli" : `operator:${op.id}`);

/** The back office of managed earning: products, orders, the redemption queue, rates, yield paid. */
export const adminEarnRouter = router({
  products: productsRead.query(({ ctx }) => listProducts(ctx.deps.db, undefined, true)),
  createProduct: catalogue
    .input(ZEarnProductInputSchema)
    .mutation(({ ctx, input }) => createProduct(ctx.deps.db, input, actor(ctx.operator))),
  setOnSale: catalogue
    .input(zId.extend({ on_sale: z.boolean() }))
    .mutation(({ ctx, input }) =>
      setProductOnSale(ctx.deps.db, input.id, input.on_sale, actor(ctx.operator)),
    ),
  orders: productsRead
    .input(ZPageRequestSchema.extend({ statuses: zStatuses }))
    .query(async ({ ctx, input }) => {
      const rows = await listOrdersForReview(ctx.deps.db, input.statuses, input.page, input.page_size);
      return rows.map((o) => ({ ...orderView(o, ""), userId: o.userId }));
    }),
  approveRedemption: productsOperate.input(zId).mutation(async ({ ctx, input }) => {
    const done = await approveRedemption(ctx.deps.db, {
      orderId: input.id,
      operatorId: ctx.operator.id,
      actor: actor(ctx.operator),
    });
    return { status: done?.status ?? null };
  }),
  rejectRedemption: productsOperate
    .input(zId.extend({ reason: z.string().trim().min(1).max(200) }))
    .mutation(async ({ ctx, input }) => {
      await rejectRedemption(ctx.deps.db, {
        orderId: input.id,
        operatorId: ctx.operator.id,
        actor: actor(ctx.operator),
        reason: input.reason,
      });
      return { ok: true };
    }),
  rates: productsRead.input(zId).query(({ ctx, input }) => listPublishedRates(ctx.deps.db, input.id)),
  publishRate: catalogue.input(ZEarnPublishRateSchema).mutation(({ ctx, input }) =>
    publishRate(ctx.deps.db, {
      productId: input.product_id,
      day: input.day,
      rate: input.rate,
      actor: actor(ctx.operator),
    }),
  ),
  yieldReport: productsRead.query(({ ctx }) => yieldReport(ctx.deps.db)),
  /** Runs the daily job now (it is idempotent): for operators after an outage, and the CLI. */
  runYield: operatorProcedure("jobs.run").mutation(({ ctx }) => runDailyYield(ctx.deps.db)),
});
