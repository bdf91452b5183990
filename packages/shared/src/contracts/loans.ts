import { z } from "zod";
import { DECIMAL_STRING, MoneyDecimal } from "../money.ts";
import { err, zFormBoolean } from "./common.ts";
import { zAmount, zCurrency } from "./funding.ts";

/**
 * Loan money (principal, interest, late fees, repayments) is counted in cents: amounts have at most
 * two decimals, and every computed amount is rounded half up to the cent.
 */
export const LOAN_MONEY_DECIMALS = 2;

/** The proofs of SPEC section 3 a loan application carries, one uploaded image each. */
export const LOAN_PROOF_KINDS = ["credit", "housing", "income", "bank", "id_photo"] as const;
export type TLoanProofKind = (typeof LOAN_PROOF_KINDS)[number];

const zId = z.coerce.number(err("FIELD_INVALID")).int(err("FIELD_INVALID")).positive(err("FIELD_INVALID"));
const zUploadId = z.string(err("PROOF_REQUIRED")).trim().uuid(err("PROOF_REQUIRED"));
/** An amount in cents: positive, at most two decimals (AMOUNT_TOO_PRECISE naming the decimals allowed). */
export const zLoanAmount = zAmount.refine(
  (v) => !DECIMAL_STRING.test(v) || new MoneyDecimal(v).decimalPlaces() <= LOAN_MONEY_DECIMALS,
  { message: "AMOUNT_TOO_PRECISE", params: { decimals: LOAN_MONEY_DECIMALS } },
);
/** A daily rate as a decimal share, e.g. 0.001 for 0.1% a day; below 10% a day. */
export const zLoanRate = z
  .string(err("FIELD_INVALID"))
  .trim()
  .regex(DECIMAL_STRING, err("FIELD_INVALID"))
  .refine((v) => /^0(\.\d{1,8})?$/.test(v) && new MoneyDecimal(v).lessThan("0.1"), err("FIELD_INVALID"));
const zCycle = z.coerce.number(err("LOAN_CYCLE_INVALID")).int(err("LOAN_CYCLE_INVALID")).min(1).max(365);

export const ZLoanQuoteRequestSchema = z.object({
  product_id: zId,
  amount: zLoanAmount,
  cycle_days: zCycle,
});
export type TLoanQuoteRequest = z.infer<typeof ZLoanQuoteRequestSchema>;

export const ZLoanApplyRequestSchema = ZLoanQuoteRequestSchema.extend({
  agree: zFormBoolean.refine((v) => v, err("AGREEMENT_REQUIRED")),
  credit_upload_id: zUploadId.optional(),
  housing_upload_id: zUploadId.optional(),
  income_upload_id: zUploadId.optional(),
  bank_upload_id: zUploadId.optional(),
  id_photo_upload_id: zUploadId.optional(),
});
export type TLoanApplyRequest = z.infer<typeof ZLoanApplyRequestSchema>;

/** Reapplying after a rejection or a withdrawal: the same loan, optionally with new proofs. */
export const ZLoanReapplyRequestSchema = ZLoanApplyRequestSchema.omit({
  product_id: true,
  amount: true,
  cycle_days: true,
}).extend({ loan_id: zId });
export type TLoanReapplyRequest = z.infer<typeof ZLoanReapplyRequestSchema>;

export const ZLoanIdRequestSchema = z.object({ loan_id: zId });

export const ZLoanRepayRequestSchema = z.object({ loan_id: zId, amount: zLoanAmount });
export type TLoanRepayRequest = z.infer<typeof ZLoanRepayRequestSchema>;

export const ZLoanWireRepayRequestSchema = ZLoanRepayRequestSchema.extend({ upload_id: zUploadId });
export type TLoanWireRepayRequest = z.infer<typeof ZLoanWireRepayRequestSchema>;

export const ZLoanListRequestSchema = z.object({
  page: z.coerce.number(err("FIELD_INVALID")).int().min(1).max(10_000).default(1),
  page_size: z.coerce.number(err("FIELD_INVALID")).int().min(1).max(100).default(20),
});

export const ZLoanProductInputSchema = z
  .object({
    name: z.string(err("FIELD_INVALID")).trim().min(1, err("FIELD_INVALID")).max(80, err("FIELD_INVALID")),
    currency: zCurrency,
    cycle_days: z.array(zCycle).min(1, err("LOAN_CYCLE_INVALID")).max(12, err("LOAN_CYCLE_INVALID")),
    daily_rate: zLoanRate,
    overdue_rate: zLoanRate,
    min_amount: zLoanAmount,
    max_amount: zLoanAmount,
    enabled: z.boolean().default(true),
  })
  .refine((p) => new MoneyDecimal(p.min_amount).lessThanOrEqualTo(p.max_amount), {
    message: "FIELD_INVALID",
    path: ["max_amount"],
  });
export type TLoanProductInput = z.infer<typeof ZLoanProductInputSchema>;

export const ZLoanRejectRequestSchema = z.object({
  loan_id: zId,
  reason: z.string(err("REJECT_REASON_REQUIRED")).trim().min(1, err("REJECT_REASON_REQUIRED")).max(500),
});
export const ZLoanWireReviewRequestSchema = z.object({
  repayment_id: zId,
  reason: z.string().trim().max(500).optional(),
});

const cents = (v: InstanceType<typeof MoneyDecimal>) =>
  v.toDecimalPlaces(LOAN_MONEY_DECIMALS, MoneyDecimal.ROUND_HALF_UP);

const DAY_MS = 86_400_000;
/** `day` (YYYY-MM-DD, UTC) plus `n` days. */
export function addLoanDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);
}
/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function loanDaysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
}

/** A loan's interest: principal × daily rate × days, rounded half up to the cent. */
export function loanInterest(amount: string, dailyRate: string, cycleDays: number): string {
  return cents(new MoneyDecimal(amount).times(dailyRate).times(cycleDays)).toFixed(LOAN_MONEY_DECIMALS);
}

/** One day's late fee: the unpaid principal × the overdue daily rate, rounded half up to the cent. */
export function loanLateFee(unpaidPrincipal: string, overdueRate: string): string {
  return cents(new MoneyDecimal(unpaidPrincipal).times(overdueRate)).toFixed(LOAN_MONEY_DECIMALS);
}

/**
 * What the user sees before applying, and what the server records: interest, total repayment, the
 * due day (the start day plus the cycle), the last interest-free grace day, and the late fee a day
 * after that while the whole principal is unpaid.
 */
export function loanQuote(params: {
  amount: string;
  cycleDays: number;
  dailyRate: string;
  overdueRate: string;
  graceDays: number;
  startDay: string;
}) {
  const interest = loanInterest(params.amount, params.dailyRate, params.cycleDays);
  const dueDay = addLoanDays(params.startDay, params.cycleDays);
  return {
    amount: new MoneyDecimal(params.amount).toFixed(LOAN_MONEY_DECIMALS),
    cycleDays: params.cycleDays,
    dailyRate: new MoneyDecimal(params.dailyRate).toFixed(),
    overdueRate: new MoneyDecimal(params.overdueRate).toFixed(),
    interest,
    total: new MoneyDecimal(params.amount).plus(interest).toFixed(LOAN_MONEY_DECIMALS),
    dueDay,
    graceDays: params.graceDays,
    graceEndDay: addLoanDays(dueDay, params.graceDays),
    lateFeePerDay: loanLateFee(params.amount, params.overdueRate),
  };
}
export type TLoanQuote = ReturnType<typeof loanQuote>;

/** Late-fee days charged by `today`: every day after the grace end, up to and including today. */
export function loanFeeDaysDue(dueDay: string, graceDays: number, today: string): number {
  return Math.max(0, loanDaysBetween(addLoanDays(dueDay, graceDays), today));
}

/**
 * How a repayment is split: the late fees owed first, then the interest, then the principal.
 * `owed` are the unpaid parts; the amount must not exceed their sum.
 */
export function allocateRepayment(
  amount: string,
  owed: { lateFees: string; interest: string; principal: string },
): { lateFees: string; interest: string; principal: string } {
  let left = new MoneyDecimal(amount);
  const take = (part: string) => {
    const t = MoneyDecimal.min(left, part);
    left = left.minus(t);
    return t.toFixed(LOAN_MONEY_DECIMALS);
  };
  const lateFees = take(owed.lateFees);
  const interest = take(owed.interest);
  const principal = take(owed.principal);
  return { lateFees, interest, principal };
}
