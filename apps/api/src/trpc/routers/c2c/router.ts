import {
  c2cExpiryScheduler,
  cancelC2cOrder,
  createC2cOrder,
  getC2cOrder,
  getC2cRules,
  getPaymentSettings,
  listActiveMerchants,
  listC2cOrders,
  quoteC2cOrder,
  savePaymentSettings,
  submitC2cProof,
} from "@northstar/domain/c2c";
import {
  ZC2cCreateOrderRequestSchema,
  ZC2cOrderListRequestSchema,
  ZC2cOrderRequestSchema,
  ZC2cPaymentSettingsSchema,
  ZC2cQuoteRequestSchema,
  ZC2cSubmitProofRequestSchema,
} from "@northstar/shared/contracts/c2c";
import { zCurrency } from "@northstar/shared/contracts/funding";
import { z } from "zod";
import { onceByKey } from "../../idempotency.ts";
import { authedProcedure, moneyProcedure, publicProcedure, router } from "../../init.ts";

/**
 * C2C purchase by wire for users: merchants and quotes, creating an order (once per key), the
 * user's own orders, the payment proof, payment settings and the rules page. Each calls one service;
 * the primary-KYC gate is checked by the order service itself.
 */
export const c2cRouter = router({
  merchants: publicProcedure
    .input(z.object({ coin: zCurrency.optional() }).default({}))
    .query(({ ctx, input }) => listActiveMerchants(ctx.deps.db, input.coin)),
  quote: authedProcedure
    .input(ZC2cQuoteRequestSchema)
    .query(({ ctx, input }) => quoteC2cOrder(ctx.deps.db, input)),
  /** A money action's start: sent with an Idempotency-Key, a resend answers the first order. */
  create: moneyProcedure
    .input(ZC2cCreateOrderRequestSchema)
    .mutation(({ ctx, input }) =>
      onceByKey(ctx, "c2c.create", input, (once) =>
        createC2cOrder(
          { db: ctx.deps.db, scheduler: c2cExpiryScheduler(ctx.deps.redis, ctx.deps.config.redisPrefix) },
          ctx.auth.user,
          input,
          once,
        ),
      ),
    ),
  orders: authedProcedure
    .input(ZC2cOrderListRequestSchema)
    .query(({ ctx, input }) => listC2cOrders(ctx.deps.db, ctx.auth.user.id, input)),
  order: authedProcedure
    .input(ZC2cOrderRequestSchema)
    .query(({ ctx, input }) => getC2cOrder(ctx.deps.db, ctx.auth.user.id, input.order_id)),
  /** The buyer cancels an order not yet paid; reserved stock returns to the merchant. */
  cancel: authedProcedure
    .input(ZC2cOrderRequestSchema)
    .mutation(({ ctx, input }) => cancelC2cOrder({ db: ctx.deps.db }, ctx.auth.user, input.order_id)),
  submitProof: authedProcedure
    .input(ZC2cSubmitProofRequestSchema)
    .mutation(({ ctx, input }) => submitC2cProof({ db: ctx.deps.db }, ctx.auth.user, input)),
  paymentSettings: authedProcedure.query(({ ctx }) => getPaymentSettings(ctx.deps.db, ctx.auth.user.id)),
  savePaymentSettings: authedProcedure
    .input(ZC2cPaymentSettingsSchema)
    .mutation(({ ctx, input }) => savePaymentSettings(ctx.deps.db, ctx.auth.user.id, input)),
  rules: publicProcedure.query(({ ctx }) => getC2cRules(ctx.deps.db, ctx.lang)),
});
