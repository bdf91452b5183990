import {
  buyOption,
  getOptionBalance,
  getOptionOrder,
  listOptionOrders,
  listOptionProducts,
  listSettledOptions,
  optionExposure,
  optionHouseResult,
  optionOrderTicks,
  settlementScheduler,
} from "@northstar/domain/options";
import {
  ZBuyOptionRequestSchema,
  ZOptionOrderListRequestSchema,
  ZOptionOrderRequestSchema,
} from "@northstar/shared/contracts/options";
import { z } from "zod";
import { onceByKey } from "../../idempotency.ts";
import { authedProcedure, moneyProcedure, operatorProcedure, publicProcedure, router } from "../../init.ts";

/** Options: the products, buying, the user's open orders and delivery record; each calls one service. */
export const optionsRouter = router({
  products: publicProcedure.query(({ ctx }) => listOptionProducts(ctx.deps.db)),
  balance: authedProcedure.query(({ ctx }) => getOptionBalance(ctx.deps.db, ctx.auth.user)),
  /** A money action: sent with an Idempotency-Key, a resend answers the first order. */
  buy: moneyProcedure
    .input(ZBuyOptionRequestSchema)
    .mutation(({ ctx, input }) =>
      onceByKey(ctx, "options.buy", input, (once) =>
        buyOption(
          { db: ctx.deps.db, scheduler: settlementScheduler(ctx.deps.redis, ctx.deps.config.redisPrefix) },
          ctx.auth.user,
          input,
          once,
        ),
      ),
    ),
  orders: authedProcedure.input(ZOptionOrderListRequestSchema).query(({ ctx, input }) =>
    listOptionOrders(ctx.deps.db, ctx.auth.user.id, {
      scope: input.scope,
      page: input.page,
      pageSize: input.page_size,
    }),
  ),
  order: authedProcedure
    .input(ZOptionOrderRequestSchema)
    .query(({ ctx, input }) => getOptionOrder(ctx.deps.db, ctx.auth.user.id, input.id)),
  /** The recorded ticks around the price one of the user's own orders settled at. */
  ticks: authedProcedure
    .input(ZOptionOrderRequestSchema)
    .query(({ ctx, input }) => optionOrderTicks(ctx.deps.db, ctx.auth.user.id, input.id)),
});

const riskRead = operatorProcedure("risk.read");
const productsRead = operatorProcedure("products.read");

/** The back office of options: exposure of open orders, settled orders, the house result. */
export const optionsAdminRouter = router({
  products: productsRead.query(({ ctx }) => listOptionProducts(ctx.deps.db)),
  exposure: riskRead.query(({ ctx }) => optionExposure(ctx.deps.db)),
  houseResult: riskRead.query(({ ctx }) => optionHouseResult(ctx.deps.db)),
  settled: riskRead
    .input(
      z.object({
        page: z.coerce.number().int().min(1).max(10_000).default(1),
        page_size: z.coerce.number().int().min(1).max(100).default(20),
      }),
    )
    .query(({ ctx, input }) =>
      listSettledOptions(ctx.deps.db, { page: input.page, pageSize: input.page_size }),
    ),
});
