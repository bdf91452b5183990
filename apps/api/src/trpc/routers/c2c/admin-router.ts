import {
  c2cExpiryScheduler,
  confirmC2cOrder,
  createMerchant,
  fundMerchant,
  getC2cRulesAll,
  listC2cOrdersAdmin,
  listMerchantsAdmin,
  matchC2cOrder,
  moveMerchantStock,
  rejectC2cOrder,
  saveC2cRules,
  setMerchantStatus,
  updateMerchant,
} from "@northstar/domain/c2c";
import {
  ZC2cIdSchema,
  ZC2cMerchantInputSchema,
  ZC2cMerchantUpdateSchema,
  ZC2cOrderRequestSchema,
  ZC2cRejectRequestSchema,
  ZC2cRulesSchema,
  ZC2cStockMoveSchema,
} from "@northstar/shared/contracts/c2c";
import { c2cOrderMachine } from "@northstar/shared/state-machines";
import { z } from "zod";
import { operatorProcedure, router } from "../../init.ts";

const actor = (op: { id: number }) => (op.id === 0 ? "cli" : `operator:${op.id}`);
const productsRead = operatorProcedure("products.read");
const productsOperate = operatorProcedure("products.operate");

/**
 * The back office of C2C: merchants and their escrowed stock, the orders with their proofs (confirm
 * or reject), manual matching, and the rules page. Finance and administrators run it; the content
 * role may edit the rules.
 */
export const c2cAdminRouter = router({
  merchants: productsRead.query(({ ctx }) => listMerchantsAdmin(ctx.deps.db)),
  createMerchant: operatorProcedure("catalogue.manage")
    .input(ZC2cMerchantInputSchema)
    .mutation(({ ctx, input }) => createMerchant(ctx.deps.db, input, actor(ctx.operator))),
  updateMerchant: operatorProcedure("catalogue.manage")
    .input(ZC2cMerchantUpdateSchema)
    .mutation(({ ctx, input }) => updateMerchant(ctx.deps.db, input.id, input.data, actor(ctx.operator))),
  pauseMerchant: productsOperate
    .input(ZC2cIdSchema)
    .mutation(({ ctx, input }) => setMerchantStatus(ctx.deps.db, input.id, "paused", actor(ctx.operator))),
  resumeMerchant: productsOperate
    .input(ZC2cIdSchema)
    .mutation(({ ctx, input }) => setMerchantStatus(ctx.deps.db, input.id, "active", actor(ctx.operator))),
  fundStock: productsOperate
    .input(ZC2cStockMoveSchema)
    .mutation(({ ctx, input }) =>
      fundMerchant(
        { db: ctx.deps.db, scheduler: c2cExpiryScheduler(ctx.deps.redis, ctx.deps.config.redisPrefix) },
        input,
        actor(ctx.operator),
      ),
    ),
  withdrawStock: productsOperate
    .input(ZC2cStockMoveSchema)
    .mutation(({ ctx, input }) => moveMerchantStock(ctx.deps.db, "withdraw", input, actor(ctx.operator))),
  orders: productsRead
    .input(
      z.object({
        status: z.enum(c2cOrderMachine.states).optional(),
        page: z.coerce.number().int().min(1).max(10_000).default(1),
        page_size: z.coerce.number().int().min(1).max(100).default(20),
      }),
    )
    .query(({ ctx, input }) =>
      listC2cOrdersAdmin(ctx.deps.db, { status: input.status, page: input.page, pageSize: input.page_size }),
    ),
  match: productsOperate
    .input(ZC2cOrderRequestSchema)
    .mutation(({ ctx, input }) =>
      matchC2cOrder(
        { db: ctx.deps.db, scheduler: c2cExpiryScheduler(ctx.deps.redis, ctx.deps.config.redisPrefix) },
        input.order_id,
        actor(ctx.operator),
      ),
    ),
  confirm: productsOperate
    .input(ZC2cOrderRequestSchema)
    .mutation(({ ctx, input }) => confirmC2cOrder({ db: ctx.deps.db }, input.order_id, actor(ctx.operator))),
  reject: productsOperate
    .input(ZC2cRejectRequestSchema)
    .mutation(({ ctx, input }) =>
      rejectC2cOrder({ db: ctx.deps.db }, input.order_id, input.reason, actor(ctx.operator)),
    ),
  rules: operatorProcedure("content.edit").query(({ ctx }) => getC2cRulesAll(ctx.deps.db)),
  saveRules: operatorProcedure("content.edit")
    .input(ZC2cRulesSchema)
    .mutation(({ ctx, input }) => saveC2cRules(ctx.deps.db, input.texts, actor(ctx.operator))),
});
