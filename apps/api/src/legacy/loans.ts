import type { Authenticated } from "@northstar/domain/identity";
import { getVerificationGates } from "@northstar/domain/kyc";
import {
  getLoanLimit,
  getUserLoan,
  type LoanView,
  listLoanProducts,
  listUserLoans,
  repayFromBalance,
  submitWireRepayment,
} from "@northstar/domain/loans";
import { getPolicy } from "@northstar/domain/policy";
import { zLoanAmount } from "@northstar/shared/contracts/loans";
import { loanMachine } from "@northstar/shared/state-machines";
import { z } from "zod";
import { defineLegacyCall } from "./define.ts";

const zId = z.coerce.number().int().positive();
const userOf = (auth: Authenticated | undefined) => {
  if (!auth) {
    throw new Error("auth required");
  }
  return auth.user;
};
const unix = (d: Date | string | null) => (d === null ? null : Math.floor(new Date(d).getTime() / 1000));

/** A loan in the legacy field names (SPEC section 3). */
const legacyLoan = (l: LoanView) => ({
  id: l.id,
  contract_no: l.contractNo,
  product_id: l.productId,
  lender: l.lender,
  currency: l.currency,
  amount: l.amount,
  cycle_days: l.cycleDays,
  daily_rate: l.dailyRate,
  overdue_rate: l.overdueRate,
  interest: l.interest,
  total: l.total,
  late_fee: l.lateFees,
  overdue_days: l.overdueDays,
  grace_days: l.graceDays,
  paid: l.paid,
  owed: l.owed.total,
  due_day: l.dueDay,
  grace_end_day: l.graceEndDay,
  status: l.status,
  reject_reason: l.rejectReason,
  applied_at: unix(l.appliedAt),
  disbursed_at: unix(l.disbursedAt),
  cleared_at: unix(l.clearedAt),
});

/** web/lendList: the loan products (no session needed), with the grace days and the proofs asked for. */
export const lendList = defineLegacyCall({
  name: "lendList",
  auth: "optional",
  input: z.object({}),
  async handle(ctx) {
    const [list, graceDays, proofs] = await Promise.all([
      listLoanProducts(ctx.deps.db),
      getPolicy(ctx.deps.db, "loans.graceDays"),
      getPolicy(ctx.deps.db, "loans.requiredProofs"),
    ]);
    return {
      data: {
        list: list.map((p) => ({
          id: p.id,
          name: p.name,
          currency: p.currency,
          cycle_days: p.cycleDays,
          daily_rate: p.dailyRate,
          overdue_rate: p.overdueRate,
          min_amount: p.minAmount,
          max_amount: p.maxAmount,
        })),
        grace_days: graceDays,
        required_proofs: proofs,
      },
    };
  },
});

/**
 * web/lendMy: the user's loan standing: the verification gate (primary and advanced KYC), and once
 * verified the credit score, the limit, the part in use and what is left.
 */
export const lendMy = defineLegacyCall({
  name: "lendMy",
  auth: "required",
  input: z.object({}),
  async handle(ctx) {
    const user = userOf(ctx.auth);
    const gate = (await getVerificationGates(ctx.deps.db, user.id)).gates.loans;
    if (!gate.allowed) {
      return { data: { allowed: false, next: gate.next, error: gate.errorCode } };
    }
    const limit = await getLoanLimit(ctx.deps.db, ctx.deps.prices, user.id);
    return {
      data: {
        allowed: true,
        score: limit.score,
        limit_usdt: limit.limitUsdt,
        used_usdt: limit.usedUsdt,
        available_usdt: limit.availableUsdt,
      },
    };
  },
});

/** web/lendMylist: my loans, latest first, `page` by `page_size`, optionally one `status`. */
export const lendMylist = defineLegacyCall({
  name: "lendMylist",
  auth: "required",
  input: z.object({
    status: z.enum(loanMachine.states).optional(),
    page: z.coerce.number().int().min(1).max(10_000).default(1),
    page_size: z.coerce.number().int().min(1).max(100).default(20),
  }),
  async handle(ctx, input) {
    const { items, total } = await listUserLoans(
      ctx.deps.db,
      userOf(ctx.auth).id,
      input.page,
      input.page_size,
      input.status ? [input.status] : undefined,
    );
    return { data: { list: items.map(legacyLoan), total, page: input.page } };
  },
});

/**
 * web/lendBack: repays `amount` of my loan `loan_id`: from the exchange balance at once, or, with
 * `upload_id` (a wire transfer's proof from POST /uploads/proof), as a wire repayment an operator
 * confirms. Once per `rtoken`.
 */
export const lendBack = defineLegacyCall({
  name: "lendBack",
  auth: "required",
  once: "loans.repay",
  input: z.object({ loan_id: zId, amount: zLoanAmount, upload_id: z.string().trim().uuid().optional() }),
  async handle(ctx, input) {
    const user = userOf(ctx.auth);
    if (input.upload_id) {
      // The answer is recorded in the transaction that files the repayment (a resend with the same
      // rtoken answers it again, even after a crash between filing and answering).
      const r = await submitWireRepayment(
        ctx.deps.db,
        user,
        { ...input, upload_id: input.upload_id },
        new Date(),
        ctx.once && {
          record: (tx, answer) =>
            ctx.once?.record(tx, legacyWire(answer as { id: number; status: string }, input.amount)) ??
            Promise.resolve(),
        },
      );
      return { data: legacyWire(r, input.amount), messageKey: "loans.wireSubmitted" };
    }
    const result = await repayFromBalance(
      ctx.deps.db,
      user,
      input,
      new Date(),
      ctx.once && {
        record: (tx, answer) => {
          const a = answer as Awaited<ReturnType<typeof repayFromBalance>>;
          return ctx.once?.record(tx, legacyRepayment(a)) ?? Promise.resolve();
        },
      },
    );
    return { data: legacyRepayment(result), messageKey: "loans.repaid" };
  },
});

/** A filed wire repayment in the legacy field names, with the amount as the user sent it. */
const legacyWire = (r: { id: number; status: string }, amount: string) => ({
  repayment_id: r.id,
  method: "wire",
  status: r.status,
  amount,
});

const legacyRepayment = (r: Awaited<ReturnType<typeof repayFromBalance>>) => ({
  repayment_id: r.repaymentId,
  method: "balance",
  status: "confirmed",
  late_fee: r.split.lateFees,
  interest: r.split.interest,
  principal: r.split.principal,
  loan: legacyLoan(r.loan),
});

/**
 * web/lend_img: the images of my loan `loan_id`: the application's proofs by kind and the wire
 * repayments' proofs, each as a private `/uploads/<id>` path (served to the owner and operators).
 */
export const lendImg = defineLegacyCall({
  name: "lend_img",
  auth: "required",
  input: z.object({ loan_id: zId }),
  async handle(ctx, input) {
    const loan = await getUserLoan(ctx.deps.db, userOf(ctx.auth).id, input.loan_id);
    return {
      data: {
        proofs: Object.entries(loan.proofs)
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([kind, id]) => ({ kind, id, url: `/uploads/${id}` })),
        repayment_proofs: loan.repayments
          .filter((r) => r.uploadId)
          .map((r) => ({
            repayment_id: r.id,
            status: r.status,
            id: r.uploadId,
            url: `/uploads/${r.uploadId}`,
          })),
      },
    };
  },
});
