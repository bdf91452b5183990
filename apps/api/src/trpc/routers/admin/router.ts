import { loginOperator, lookupUser } from "@northstar/domain/admin";
import { listAuditLog } from "@northstar/domain/audit";
import { AppError } from "@northstar/domain/errors";
import {
  approveWithdrawal,
  confirmDeposit,
  listDepositAddresses,
  listDepositsForReview,
  listWithdrawalsForReview,
  rejectDeposit,
  rejectWithdrawal,
  upsertDepositAddress,
} from "@northstar/domain/funding";
import { reconcileLedger } from "@northstar/domain/ledger";
import { listInstruments, saveInstrument, setInstrumentEnabled } from "@northstar/domain/markets";
import { getPolicySnapshot, setPolicy } from "@northstar/domain/policy";
import { zChain, zCurrency } from "@northstar/shared/contracts/funding";
import {
  ZInstrumentEnabledRequestSchema,
  ZMarketListRequestSchema,
  ZSaveInstrumentRequestSchema,
} from "@northstar/shared/contracts/markets";
import { isPolicyKey } from "@northstar/shared/policy";
import { z } from "zod";
import { operatorProcedure, publicProcedure, router } from "../../init.ts";
import { kycAdminRouter } from "../kyc/admin-router.ts";
import { supportAdminRouter } from "../support/router.ts";

const anyOperator = operatorProcedure(["admin", "finance", "support", "content"]);
const finance = operatorProcedure(["admin", "finance"]);
const zStatus = z.enum(["pending", "success", "failed", "cancelled"]).optional();
const zReview = z.object({ id: z.coerce.number().int().positive() });
const zReject = zReview.extend({ reason: z.string().trim().min(1).max(200) });
const actor = (op: { id: number; username: string }) => (op.id === 0 ? "cli" : `operator:${op.id}`);

/** The back office. Every procedure checks the operator's role; every change is audited. */
export const adminRouter = router({
  login: publicProcedure
    .input(z.object({ username: z.string().min(1).max(64), password: z.string().min(1).max(128) }))
    .mutation(({ ctx, input }) => loginOperator(ctx.deps.db, { ...input, address: ctx.ip })),
  me: anyOperator.query(({ ctx }) => ctx.operator),
  getPolicy: finance.query(({ ctx }) => getPolicySnapshot(ctx.deps.db)),
  setPolicy: operatorProcedure(["admin"])
    .input(z.object({ key: z.string(), value: z.unknown() }))
    .mutation(async ({ ctx, input }) => {
      if (!isPolicyKey(input.key)) {
        throw new AppError("FIELD_INVALID", {}, "key");
      }
      await setPolicy(ctx.deps.db, input.key, input.value, actor(ctx.operator));
      return { ok: true };
    }),

  instruments: operatorProcedure(["admin"])
    .input(ZMarketListRequestSchema.pick({ category: true, search: true, page: true, page_size: true }))
    .query(({ ctx, input }) =>
      listInstruments(ctx.deps.db, { ...input, pageSize: input.page_size, includeDisabled: true }),
    ),
  saveInstrument: operatorProcedure(["admin"])
    .input(ZSaveInstrumentRequestSchema)
    .mutation(({ ctx, input }) => saveInstrument(ctx.deps.db, input, actor(ctx.operator))),
  setInstrumentEnabled: operatorProcedure(["admin"])
    .input(ZInstrumentEnabledRequestSchema)
    .mutation(async ({ ctx, input }) => {
      await setInstrumentEnabled(ctx.deps.db, input.symbol, input.enabled, actor(ctx.operator));
      return { ok: true };
    }),

  deposits: finance
    .input(z.object({ status: z.enum(["pending", "success", "failed"]).optional() }))
    .query(({ ctx, input }) => listDepositsForReview(ctx.deps.db, input.status)),
  confirmDeposit: finance.input(zReview).mutation(({ ctx, input }) =>
    confirmDeposit(ctx.deps.db, ctx.deps.prices, {
      depositId: input.id,
      operatorId: ctx.operator.id,
      actor: actor(ctx.operator),
    }),
  ),
  rejectDeposit: finance.input(zReject).mutation(async ({ ctx, input }) => {
    await rejectDeposit(ctx.deps.db, {
      depositId: input.id,
      operatorId: ctx.operator.id,
      actor: actor(ctx.operator),
      reason: input.reason,
    });
    return { ok: true };
  }),

  withdrawals: finance
    .input(z.object({ status: zStatus }))
    .query(({ ctx, input }) => listWithdrawalsForReview(ctx.deps.db, input.status)),
  approveWithdrawal: finance.input(zReview).mutation(async ({ ctx, input }) => {
    await approveWithdrawal(ctx.deps.db, {
      withdrawalId: input.id,
      operatorId: ctx.operator.id,
      actor: actor(ctx.operator),
    });
    return { ok: true };
  }),
  rejectWithdrawal: finance.input(zReject).mutation(async ({ ctx, input }) => {
    await rejectWithdrawal(ctx.deps.db, {
      withdrawalId: input.id,
      operatorId: ctx.operator.id,
      actor: actor(ctx.operator),
      reason: input.reason,
    });
    return { ok: true };
  }),

  depositAddresses: finance.query(({ ctx }) => listDepositAddresses(ctx.deps.db)),
  setDepositAddress: finance
    .input(
      z.object({
        currency: zCurrency,
        chain: zChain,
        address: z.string().trim().min(10).max(120),
        memo: z.string().max(64).optional(),
        enabled: z.boolean().default(true),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      await upsertDepositAddress(ctx.deps.db, { ...input, actor: actor(ctx.operator) });
      return { ok: true };
    }),

  /** A user by uid, email or phone, with balances in both books and recent ledger lines. */
  user: anyOperator
    .input(z.object({ query: z.string().trim().min(1).max(254) }))
    .query(({ ctx, input }) => lookupUser(ctx.deps.db, input.query)),
  reconcile: finance.query(({ ctx }) => reconcileLedger(ctx.deps.db)),
  audit: operatorProcedure(["admin"]).query(({ ctx }) => listAuditLog(ctx.deps.db)),
  kyc: kycAdminRouter,
  support: supportAdminRouter,
});
