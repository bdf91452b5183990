import { requestHash } from "@northstar/domain/idempotency";
import {
  cancelOrder,
  getSpotBalances,
  getSpotTerms,
  listFills,
  listOrders,
  placeOrder,
  type SpotDeps,
} from "@northstar/domain/spot";
import { ZSymbolRequestSchema } from "@northstar/shared/contracts/markets";
import {
  ZCancelOrderRequestSchema,
  ZFillListRequestSchema,
  ZOrderListRequestSchema,
  ZPlaceOrderRequestSchema,
} from "@northstar/shared/contracts/spot";
import { translate } from "@northstar/shared/i18n";
import type { z } from "zod";
import type { MoneyContext, SignedInContext, TrpcContext } from "../../init.ts";
import { authedProcedure, moneyProcedure, publicProcedure, router } from "../../init.ts";

const spotDeps = (ctx: TrpcContext): SpotDeps => ({
  db: ctx.deps.db,
  redis: ctx.deps.redis,
  prefix: ctx.deps.config.redisPrefix,
});

/**
 * Places an order; answers like the legacy "createOrder" event: the message is shown to the user
 * plainly. A resent order is found by its key on the order row (see ../../idempotency.ts for the
 * rest). Also answered without tRPC's procedure chain by ../../direct.ts.
 */
export async function placeSpotOrder(ctx: MoneyContext, input: z.output<typeof ZPlaceOrderRequestSchema>) {
  const order = await placeOrder(spotDeps(ctx), ctx.auth.user, input, {
    clientKey: ctx.idempotencyKey,
    requestHash: requestHash("spot.place", input),
  });
  return { order, event: "createOrder" as const, message: translate(ctx.lang, "api.orderPlaced") };
}

/** Cancels one of the user's orders (also answered by ../../direct.ts). */
export async function cancelSpotOrder(
  ctx: SignedInContext,
  input: z.output<typeof ZCancelOrderRequestSchema>,
) {
  return { order: await cancelOrder(spotDeps(ctx), ctx.auth.user, input.id) };
}

/** Spot trading: the market's terms, the user's balances, orders and fills; each calls one service. */
export const spotRouter = router({
  terms: publicProcedure
    .input(ZSymbolRequestSchema)
    .query(({ ctx, input }) => getSpotTerms(ctx.deps.db, input.symbol)),
  balances: authedProcedure
    .input(ZSymbolRequestSchema)
    .query(({ ctx, input }) => getSpotBalances(ctx.deps.db, ctx.auth.user, input.symbol)),
  place: moneyProcedure
    .input(ZPlaceOrderRequestSchema)
    .mutation(({ ctx, input }) => placeSpotOrder(ctx, input)),
  cancel: authedProcedure
    .input(ZCancelOrderRequestSchema)
    .mutation(({ ctx, input }) => cancelSpotOrder(ctx, input)),
  getMany: authedProcedure.input(ZOrderListRequestSchema).query(({ ctx, input }) =>
    listOrders(ctx.deps.db, ctx.auth.user.id, {
      scope: input.scope,
      symbol: input.symbol,
      page: input.page,
      pageSize: input.page_size,
    }),
  ),
  fills: authedProcedure.input(ZFillListRequestSchema).query(({ ctx, input }) =>
    listFills(ctx.deps.db, ctx.auth.user.id, {
      symbol: input.symbol,
      page: input.page,
      pageSize: input.page_size,
    }),
  ),
});
