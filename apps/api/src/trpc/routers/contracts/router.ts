import {
  adjustContractMargin,
  cancelContractOrder,
  closeAllContractPositions,
  closeContractPosition,
  contractExposure,
  contractHouseResult,
  contractPositionTicks,
  getContractBalance,
  getContractPosition,
  listContractPositions,
  listContractProducts,
  listContractProductsAdmin,
  listLiquidations,
  openContractPosition,
  toProductView,
  updateContractTpSl,
} from "@northstar/domain/contracts";
import {
  ZAdjustMarginRequestSchema,
  ZCloseContractRequestSchema,
  ZContractIdRequestSchema,
  ZContractListRequestSchema,
  ZOpenContractRequestSchema,
  ZUpdateTpSlRequestSchema,
} from "@northstar/shared/contracts/contracts";
import { z } from "zod";
import { onceByKey } from "../../idempotency.ts";
import { authedProcedure, moneyProcedure, operatorProcedure, publicProcedure, router } from "../../init.ts";

/**
 * Contracts: the products (every rule that can charge or close a position), opening, the user's
 * positions, pending orders and history, and the actions on a position; each calls one service.
 * Money actions carry an Idempotency-Key: a resend answers the first result.
 */
export const contractsRouter = router({
  products: publicProcedure.query(async ({ ctx }) =>
    (await listContractProducts(ctx.deps.db)).map(toProductView),
  ),
  balance: authedProcedure.query(({ ctx }) => getContractBalance(ctx.deps.db, ctx.auth.user)),
  open: moneyProcedure
    .input(ZOpenContractRequestSchema)
    .mutation(({ ctx, input }) =>
      onceByKey(ctx, "contracts.open", input, (once) =>
        openContractPosition({ db: ctx.deps.db }, ctx.auth.user, input, once),
      ),
    ),
  close: moneyProcedure
    .input(ZCloseContractRequestSchema)
    .mutation(({ ctx, input }) =>
      onceByKey(ctx, "contracts.close", input, (once) =>
        closeContractPosition({ db: ctx.deps.db }, ctx.auth.user, input, once),
      ),
    ),
  closeAll: moneyProcedure.mutation(({ ctx }) =>
    onceByKey(ctx, "contracts.closeAll", {}, () =>
      closeAllContractPositions({ db: ctx.deps.db }, ctx.auth.user),
    ),
  ),
  cancel: authedProcedure
    .input(ZContractIdRequestSchema)
    .mutation(({ ctx, input }) => cancelContractOrder({ db: ctx.deps.db }, ctx.auth.user, input.id)),
  adjustMargin: moneyProcedure
    .input(ZAdjustMarginRequestSchema)
    .mutation(({ ctx, input }) =>
      onceByKey(ctx, "contracts.adjustMargin", input, (once) =>
        adjustContractMargin({ db: ctx.deps.db }, ctx.auth.user, input, once),
      ),
    ),
  updateTpSl: authedProcedure
    .input(ZUpdateTpSlRequestSchema)
    .mutation(({ ctx, input }) => updateContractTpSl({ db: ctx.deps.db }, ctx.auth.user, input)),
  positions: authedProcedure
    .input(ZContractListRequestSchema)
    .query(({ ctx, input }) => listContractPositions(ctx.deps.db, ctx.auth.user, input)),
  position: authedProcedure
    .input(ZContractIdRequestSchema)
    .query(({ ctx, input }) => getContractPosition(ctx.deps.db, ctx.auth.user, input.id)),
  /** The recorded ticks around the price one of the user's own positions closed (or opened) at. */
  ticks: authedProcedure
    .input(ZContractIdRequestSchema)
    .query(({ ctx, input }) => contractPositionTicks(ctx.deps.db, ctx.auth.user, input.id)),
});

const riskRead = operatorProcedure("risk.read");
const productsRead = operatorProcedure("products.read");

/** The back office of contracts: products, open exposure per instrument, the house result, liquidations. */
export const contractsAdminRouter = router({
  products: productsRead.query(({ ctx }) => listContractProductsAdmin(ctx.deps.db)),
  exposure: riskRead.query(({ ctx }) => contractExposure(ctx.deps.db)),
  houseResult: riskRead.query(({ ctx }) => contractHouseResult(ctx.deps.db)),
  liquidations: riskRead
    .input(z.object({ limit: z.coerce.number().int().min(1).max(500).default(100) }))
    .query(({ ctx, input }) => listLiquidations(ctx.deps.db, input.limit)),
});
