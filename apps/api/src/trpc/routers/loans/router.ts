import {
  applyForLoan,
  approveLoan,
  confirmWireRepayment,
  createLoanProduct,
  getLoanForOperator,
  getLoanLimit,
  getUserLoan,
  listLateFeeDays,
  listLoanProducts,
  listLoansForReview,
  listUserLoans,
  listWireRepayments,
  quoteLoan,
  reapplyLoan,
  rejectLoan,
  rejectWireRepayment,
  repayFromBalance,
  runLoanOverdue,
  submitWireRepayment,
  updateLoanProduct,
  withdrawLoan,
} from "@northstar/domain/loans";
import { getPolicy } from "@northstar/domain/policy";
import {
  ZLoanApplyRequestSchema,
  ZLoanIdRequestSchema,
  ZLoanListRequestSchema,
  ZLoanProductInputSchema,
  ZLoanQuoteRequestSchema,
  ZLoanReapplyRequestSchema,
  ZLoanRejectRequestSchema,
  ZLoanRepayRequestSchema,
  ZLoanWireRepayRequestSchema,
  ZLoanWireReviewRequestSchema,
} from "@northstar/shared/contracts/loans";
import { loanMachine, loanWireRepaymentMachine } from "@northstar/shared/state-machines";
import { z } from "zod";
import { onceByKey } from "../../idempotency.ts";
import { authedProcedure, moneyProcedure, operatorProcedure, publicProcedure, router } from "../../init.ts";

const zStatuses = z.array(z.enum(loanMachine.states)).max(7).optional();

/** Loans for users: products, the quote, the limit, applying, my loans, withdrawing, repaying. */
export const loansRouter = router({
  products: publicProcedure.query(async ({ ctx }) => ({
    products: await listLoanProducts(ctx.deps.db),
    graceDays: await getPolicy(ctx.deps.db, "loans.graceDays"),
    requiredProofs: await getPolicy(ctx.deps.db, "loans.requiredProofs"),
  })),
  quote: publicProcedure
    .input(ZLoanQuoteRequestSchema)
    .query(({ ctx, input }) => quoteLoan(ctx.deps.db, input)),
  limit: authedProcedure.query(({ ctx }) => getLoanLimit(ctx.deps.db, ctx.deps.prices, ctx.auth.user.id)),
  create: moneyProcedure
    .input(ZLoanApplyRequestSchema)
    .mutation(({ ctx, input }) =>
      onceByKey(ctx, "loans.apply", input, () =>
        applyForLoan(ctx.deps.db, ctx.deps.prices, ctx.auth.user, input),
      ),
    ),
  reapply: authedProcedure
    .input(ZLoanReapplyRequestSchema)
    .mutation(({ ctx, input }) => reapplyLoan(ctx.deps.db, ctx.deps.prices, ctx.auth.user, input)),
  withdraw: authedProcedure
    .input(ZLoanIdRequestSchema)
    .mutation(({ ctx, input }) => withdrawLoan(ctx.deps.db, ctx.auth.user, input.loan_id)),
  list: authedProcedure
    .input(ZLoanListRequestSchema.extend({ statuses: zStatuses }))
    .query(({ ctx, input }) =>
      listUserLoans(ctx.deps.db, ctx.auth.user.id, input.page, input.page_size, input.statuses),
    ),
  get: authedProcedure
    .input(ZLoanIdRequestSchema)
    .query(({ ctx, input }) => getUserLoan(ctx.deps.db, ctx.auth.user.id, input.loan_id)),
  repay: moneyProcedure
    .input(ZLoanRepayRequestSchema)
    .mutation(({ ctx, input }) =>
      onceByKey(ctx, "loans.repay", input, (once) =>
        repayFromBalance(ctx.deps.db, ctx.auth.user, input, new Date(), once),
      ),
    ),
  repayByWire: moneyProcedure
    .input(ZLoanWireRepayRequestSchema)
    .mutation(({ ctx, input }) =>
      onceByKey(ctx, "loans.repayByWire", input, (once) =>
        submitWireRepayment(ctx.deps.db, ctx.auth.user, input, new Date(), once),
      ),
    ),
});

const productsRead = operatorProcedure("products.read");
const productsOperate = operatorProcedure("products.operate");
const actor = (op: { id: number; username: string }) => (op.id === 0 ? "cli" : `operator:${op.id}`);

/** The back office of loans: products, the review queue, disbursement, repayments, the overdue list. */
export const adminLoansRouter = router({
  products: productsRead.query(({ ctx }) => listLoanProducts(ctx.deps.db, { includeDisabled: true })),
  createProduct: operatorProcedure("catalogue.manage")
    .input(ZLoanProductInputSchema)
    .mutation(({ ctx, input }) => createLoanProduct(ctx.deps.db, input, actor(ctx.operator))),
  updateProduct: operatorProcedure("catalogue.manage")
    .input(z.object({ id: z.coerce.number().int().positive(), data: ZLoanProductInputSchema }))
    .mutation(({ ctx, input }) => updateLoanProduct(ctx.deps.db, input.id, input.data, actor(ctx.operator))),
  list: productsRead
    .input(ZLoanListRequestSchema.extend({ statuses: zStatuses }))
    .query(({ ctx, input }) => listLoansForReview(ctx.deps.db, input.statuses, input.page, input.page_size)),
  get: productsRead.input(ZLoanIdRequestSchema).query(async ({ ctx, input }) => ({
    ...(await getLoanForOperator(ctx.deps.db, input.loan_id)),
    lateFeeDays: await listLateFeeDays(ctx.deps.db, input.loan_id),
  })),
  approve: productsOperate.input(ZLoanIdRequestSchema).mutation(({ ctx, input }) =>
    approveLoan(ctx.deps.db, {
      loanId: input.loan_id,
      operatorId: ctx.operator.id,
      actor: actor(ctx.operator),
    }),
  ),
  reject: productsOperate.input(ZLoanRejectRequestSchema).mutation(({ ctx, input }) =>
    rejectLoan(ctx.deps.db, {
      loanId: input.loan_id,
      reason: input.reason,
      operatorId: ctx.operator.id,
      actor: actor(ctx.operator),
    }),
  ),
  wireRepayments: productsRead
    .input(
      ZLoanListRequestSchema.extend({
        statuses: z.array(z.enum(loanWireRepaymentMachine.states)).max(3).optional(),
      }),
    )
    .query(({ ctx, input }) => listWireRepayments(ctx.deps.db, input.statuses, input.page, input.page_size)),
  confirmWire: productsOperate.input(ZLoanWireReviewRequestSchema).mutation(({ ctx, input }) =>
    confirmWireRepayment(ctx.deps.db, {
      repaymentId: input.repayment_id,
      operatorId: ctx.operator.id,
      actor: actor(ctx.operator),
    }),
  ),
  rejectWire: productsOperate
    .input(ZLoanWireReviewRequestSchema.extend({ reason: z.string().trim().min(1).max(500) }))
    .mutation(async ({ ctx, input }) => {
      await rejectWireRepayment(ctx.deps.db, {
        repaymentId: input.repayment_id,
        reason: input.reason,
        operatorId: ctx.operator.id,
        actor: actor(ctx.operator),
      });
      return { ok: true };
    }),
  /** Runs the daily overdue job now (it is idempotent): for operators after an outage, and the CLI. */
  runOverdue: operatorProcedure("jobs.run").mutation(({ ctx }) => runLoanOverdue(ctx.deps.db)),
});
