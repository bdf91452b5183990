import {
  addOperator,
  confirmOperatorTotp,
  generateOperatorPassword,
  isOperatorTotpEnrolled,
  listOperators,
  listOwnActions,
  listOwnSessions,
  loginOperator,
  lookupUser,
  resetOperatorTwoFactor,
  revokeOperatorSessions,
  revokeOwnSession,
  setOperatorRole,
  setOperatorStatus,
  startOperatorTotp,
} from "@northstar/domain/admin";
import { bumpUserKeyRevisions } from "@northstar/domain/apikeys";
import { listAuditLog } from "@northstar/domain/audit";
import { listOpenChainAlerts, listSweeps, payoutScheduler, resolveChainAlert } from "@northstar/domain/chain";
import { getSiteSettings } from "@northstar/domain/content";
import { AppError } from "@northstar/domain/errors";
import {
  approveWithdrawal,
  confirmDeposit,
  listDepositAddresses,
  listDepositsForReview,
  listWithdrawalsForReview,
  rejectDeposit,
  rejectWithdrawal,
  releaseWithdrawal,
  upsertDepositAddress,
} from "@northstar/domain/funding";
import { setUserStatus } from "@northstar/domain/identity";
import { reconcileLedger } from "@northstar/domain/ledger";
import { listInstruments, saveInstrument, setInstrumentEnabled } from "@northstar/domain/markets";
import { getPolicySnapshot, setPolicy } from "@northstar/domain/policy";
import { zChain, zCurrency } from "@northstar/shared/contracts/funding";
import {
  ZInstrumentEnabledRequestSchema,
  ZMarketListRequestSchema,
  ZSaveInstrumentRequestSchema,
} from "@northstar/shared/contracts/markets";
import { OPERATOR_ROLES, OPERATOR_USERNAME } from "@northstar/shared/operators";
import { isPolicyKey } from "@northstar/shared/policy";
import { sweepMachine, withdrawalMachine } from "@northstar/shared/state-machines";
import { z } from "zod";
import { addressLimitedProcedure, operatorActor, operatorProcedure, router } from "../../init.ts";
import { kycAdminRouter } from "../kyc/admin-router.ts";
import { supportAdminRouter } from "../support/router.ts";

const funding = operatorProcedure("funding.review");
const custody = operatorProcedure("chain.custody");
const fundingAddresses = operatorProcedure("funding.addresses");
const catalogue = operatorProcedure("catalogue.manage");
const enrol = operatorProcedure("account.enrol");
const security = operatorProcedure("account.security");
const manage = operatorProcedure("operators.manage");
const zWithdrawalStatus = z.enum(withdrawalMachine.states).optional();
const zReview = z.object({ id: z.coerce.number().int().positive() });
const zReason = z.string().trim().min(1).max(200);
const zReject = zReview.extend({ reason: zReason });
const zUserStatusChange = z.object({ user_id: z.coerce.number().int().positive(), reason: zReason });
const actor = operatorActor;
const zCode = z
  .string()
  .trim()
  .regex(/^\d{6}$/);
const zUsername = z.string().trim().regex(OPERATOR_USERNAME);
const zRole = z.enum(OPERATOR_ROLES);
/** The acting operator's id for "not yourself" checks; the CLI (id 0) acts as no operator. */
const actorId = (op: { id: number }) => (op.id === 0 ? undefined : op.id);

/** The operator's own account: two-factor enrolment, sessions, recent actions. */
const accountRouter = router({
  twoFactor: enrol.query(async ({ ctx }) => ({
    enrolled: await isOperatorTotpEnrolled(ctx.deps.db, ctx.operator.id),
    required: ctx.operator.enrolmentRequired,
  })),
  startTwoFactor: enrol.mutation(async ({ ctx }) => {
    const site = await getSiteSettings(ctx.deps.db);
    return startOperatorTotp(ctx.deps.db, ctx.operator.id, site.name);
  }),
  confirmTwoFactor: enrol.input(z.object({ code: zCode })).mutation(async ({ ctx, input }) => {
    await confirmOperatorTotp(ctx.deps.db, ctx.operator.id, input.code);
    return { ok: true };
  }),
  /** Ends the session asking (sign out). */
  signOut: enrol.mutation(async ({ ctx }) => {
    if (ctx.operator.sessionId) {
      await revokeOwnSession(ctx.deps.db, {
        operatorId: ctx.operator.id,
        sessionId: ctx.operator.sessionId,
        actor: actor(ctx.operator),
      });
    }
    return { ok: true };
  }),
  sessions: security.query(({ ctx }) =>
    listOwnSessions(ctx.deps.db, ctx.operator.id, ctx.operator.sessionId),
  ),
  revokeSession: security
    .input(z.object({ id: z.coerce.number().int().positive() }))
    .mutation(async ({ ctx, input }) => {
      await revokeOwnSession(ctx.deps.db, {
        operatorId: ctx.operator.id,
        sessionId: input.id,
        actor: actor(ctx.operator),
      });
      return { ok: true };
    }),
  actions: security.query(({ ctx }) => listOwnActions(ctx.deps.db, ctx.operator.id)),
});

/** Administrators manage operators (the CLI's operator:add|role|disable call these). */
const operatorsRouter = router({
  list: manage.query(({ ctx }) => listOperators(ctx.deps.db)),
  add: manage.input(z.object({ username: zUsername, role: zRole })).mutation(async ({ ctx, input }) => {
    const password = generateOperatorPassword();
    const { id } = await addOperator(ctx.deps.db, { ...input, password, actor: actor(ctx.operator) });
    // Shown once; only its hash is stored.
    return { id, username: input.username, role: input.role, password };
  }),
  setRole: manage
    .input(z.object({ username: zUsername, role: zRole }))
    .mutation(({ ctx, input }) =>
      setOperatorRole(ctx.deps.db, { ...input, actor: actor(ctx.operator), actorId: actorId(ctx.operator) }),
    ),
  setStatus: manage
    .input(z.object({ username: zUsername, status: z.enum(["active", "disabled"]) }))
    .mutation(({ ctx, input }) =>
      setOperatorStatus(ctx.deps.db, {
        ...input,
        actor: actor(ctx.operator),
        actorId: actorId(ctx.operator),
      }),
    ),
  revokeSessions: manage
    .input(z.object({ username: zUsername }))
    .mutation(({ ctx, input }) =>
      revokeOperatorSessions(ctx.deps.db, { username: input.username, actor: actor(ctx.operator) }),
    ),
  resetTwoFactor: manage.input(z.object({ username: zUsername })).mutation(({ ctx, input }) =>
    resetOperatorTwoFactor(ctx.deps.db, {
      username: input.username,
      actor: actor(ctx.operator),
      actorId: actorId(ctx.operator),
    }),
  ),
});

/** The back office. Every procedure checks the operator's role; every change is audited. */
export const adminRouter = router({
  login: addressLimitedProcedure("admin.login")
    .input(
      z.object({
        username: z.string().min(1).max(64),
        password: z.string().min(1).max(128),
        code: z.string().trim().max(6).optional(),
      }),
    )
    .mutation(({ ctx, input }) =>
      loginOperator(ctx.deps.db, {
        ...input,
        code: input.code || undefined,
        address: ctx.ip,
        userAgent: ctx.userAgent,
      }),
    ),
  me: enrol.query(({ ctx }) => ({
    id: ctx.operator.id,
    username: ctx.operator.username,
    role: ctx.operator.role,
    status: ctx.operator.status,
    enrolmentRequired: ctx.operator.enrolmentRequired,
  })),
  account: accountRouter,
  operators: operatorsRouter,
  getPolicy: operatorProcedure("policy.read").query(({ ctx }) => getPolicySnapshot(ctx.deps.db)),
  setPolicy: operatorProcedure("policy.write")
    .input(z.object({ key: z.string(), value: z.unknown() }))
    .mutation(async ({ ctx, input }) => {
      if (!isPolicyKey(input.key)) {
        throw new AppError("FIELD_INVALID", {}, "key");
      }
      await setPolicy(ctx.deps.db, input.key, input.value, actor(ctx.operator));
      return { ok: true };
    }),

  instruments: catalogue
    .input(ZMarketListRequestSchema.pick({ category: true, search: true, page: true, page_size: true }))
    .query(({ ctx, input }) =>
      listInstruments(ctx.deps.db, { ...input, pageSize: input.page_size, includeDisabled: true }),
    ),
  saveInstrument: catalogue
    .input(ZSaveInstrumentRequestSchema)
    .mutation(({ ctx, input }) => saveInstrument(ctx.deps.db, input, actor(ctx.operator))),
  setInstrumentEnabled: catalogue.input(ZInstrumentEnabledRequestSchema).mutation(async ({ ctx, input }) => {
    await setInstrumentEnabled(ctx.deps.db, input.symbol, input.enabled, actor(ctx.operator));
    return { ok: true };
  }),

  /** Credited chain deposits whose block was replaced: never credited twice, but the coins may be gone. */
  chainAlerts: funding.query(({ ctx }) =>
    listOpenChainAlerts(ctx.deps.db, ctx.deps.chain?.network ?? "ERC20"),
  ),
  /** Sweeps of deposit addresses to the hot wallet, newest first (the operator's command runs them). */
  chainSweeps: custody
    .input(
      z.object({
        status: z.enum(sweepMachine.states).optional(),
        page: z.coerce.number().int().min(1).default(1),
        page_size: z.coerce.number().int().min(1).max(100).default(20),
      }),
    )
    .query(({ ctx, input }) =>
      listSweeps(ctx.deps.db, {
        network: ctx.deps.chain?.network ?? "ERC20",
        status: input.status,
        page: input.page,
        pageSize: input.page_size,
      }),
    ),
  resolveChainAlert: funding.input(zReview).mutation(async ({ ctx, input }) => ({
    resolved: await resolveChainAlert(ctx.deps.db, input.id, actor(ctx.operator)),
  })),
  deposits: funding
    .input(z.object({ status: z.enum(["pending", "success", "failed"]).optional() }))
    .query(({ ctx, input }) => listDepositsForReview(ctx.deps.db, input.status)),
  confirmDeposit: funding.input(zReview).mutation(({ ctx, input }) =>
    confirmDeposit(ctx.deps.db, ctx.deps.prices, {
      depositId: input.id,
      operatorId: ctx.operator.id,
      actor: actor(ctx.operator),
    }),
  ),
  rejectDeposit: funding.input(zReject).mutation(async ({ ctx, input }) => {
    await rejectDeposit(ctx.deps.db, {
      depositId: input.id,
      operatorId: ctx.operator.id,
      actor: actor(ctx.operator),
      reason: input.reason,
    });
    return { ok: true };
  }),

  withdrawals: funding
    .input(z.object({ status: zWithdrawalStatus }))
    .query(({ ctx, input }) => listWithdrawalsForReview(ctx.deps.db, input.status)),
  /** Approves; a withdrawal the hot wallet pays goes on the `hot-wallet` queue at once. */
  approveWithdrawal: funding.input(zReview).mutation(async ({ ctx, input }) => {
    const { status } = await approveWithdrawal(ctx.deps.db, {
      withdrawalId: input.id,
      operatorId: ctx.operator.id,
      actor: actor(ctx.operator),
    });
    if (status === "queued") {
      await payoutScheduler(ctx.deps.redis, ctx.deps.config.redisPrefix).schedule(input.id);
    }
    return { ok: true };
  }),
  /** Lets a withdrawal over the daily hot-wallet limit go out; audited. */
  releaseWithdrawal: funding.input(zReview).mutation(async ({ ctx, input }) => {
    await releaseWithdrawal(ctx.deps.db, {
      withdrawalId: input.id,
      operatorId: ctx.operator.id,
      actor: actor(ctx.operator),
    });
    await payoutScheduler(ctx.deps.redis, ctx.deps.config.redisPrefix).schedule(input.id);
    return { ok: true };
  }),
  rejectWithdrawal: funding.input(zReject).mutation(async ({ ctx, input }) => {
    await rejectWithdrawal(ctx.deps.db, {
      withdrawalId: input.id,
      operatorId: ctx.operator.id,
      actor: actor(ctx.operator),
      reason: input.reason,
    });
    return { ok: true };
  }),

  depositAddresses: fundingAddresses.query(({ ctx }) => listDepositAddresses(ctx.deps.db)),
  setDepositAddress: fundingAddresses
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
  user: operatorProcedure("users.read")
    .input(z.object({ query: z.string().trim().min(1).max(254) }))
    .query(({ ctx, input }) => lookupUser(ctx.deps.db, input.query)),
  /** Freezes a user: every session ends (1000), sign-in and money actions are refused; audited with the reason. */
  freezeUser: operatorProcedure("users.freeze")
    .input(zUserStatusChange)
    .mutation(async ({ ctx, input }) => {
      const result = await setUserStatus(ctx.deps.db, {
        userId: input.user_id,
        status: "frozen",
        reason: input.reason,
        actor: actor(ctx.operator),
      });
      // Every API instance reads the owner's keys again: a frozen owner's bots stop at once.
      await bumpUserKeyRevisions(
        ctx.deps.db,
        { redis: ctx.deps.redis, prefix: ctx.deps.config.redisPrefix },
        input.user_id,
      );
      return result;
    }),
  unfreezeUser: operatorProcedure("users.freeze")
    .input(zUserStatusChange)
    .mutation(async ({ ctx, input }) => {
      const result = await setUserStatus(ctx.deps.db, {
        userId: input.user_id,
        status: "active",
        reason: input.reason,
        actor: actor(ctx.operator),
      });
      // Every API instance reads the owner's keys again: a frozen owner's bots stop at once.
      await bumpUserKeyRevisions(
        ctx.deps.db,
        { redis: ctx.deps.redis, prefix: ctx.deps.config.redisPrefix },
        input.user_id,
      );
      return result;
    }),
  reconcile: operatorProcedure("ledger.read").query(({ ctx }) => reconcileLedger(ctx.deps.db)),
  audit: operatorProcedure("audit.read").query(({ ctx }) => listAuditLog(ctx.deps.db)),
  kyc: kycAdminRouter,
  support: supportAdminRouter,
});
