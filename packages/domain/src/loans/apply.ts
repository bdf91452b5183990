import {
  LOAN_PROOF_KINDS,
  loanQuote,
  type TLoanApplyRequest,
  type TLoanQuoteRequest,
  type TLoanReapplyRequest,
} from "@northstar/shared/contracts/loans";
import { MoneyDecimal } from "@northstar/shared/money";
import { LOAN_LIMIT_STATUSES, loanMachine } from "@northstar/shared/state-machines";
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db, DbOrTx } from "../db/client.ts";
import { AppError } from "../errors.ts";
import type { User } from "../identity/index.ts";
import { assertGate, getCreditScore } from "../kyc/index.ts";
import { type PriceProvider, valueInUsdt } from "../markets/index.ts";
import { getPolicy } from "../policy/index.ts";
import { transition } from "../state/index.ts";
import { uploadOwner } from "../uploads/index.ts";
import { loanProducts, loans } from "./loans.table.ts";
import { getEnabledProduct, type LoanProduct } from "./products.ts";
import { type Loan, loanView } from "./view.ts";

const utcDay = (at: Date) => at.toISOString().slice(0, 10);

function checkTerms(p: LoanProduct, amount: string, cycleDays: number) {
  if (new MoneyDecimal(amount).lessThan(p.minAmount)) {
    throw new AppError(
      "LOAN_AMOUNT_BELOW_MINIMUM",
      { min: new MoneyDecimal(p.minAmount).toFixed() },
      "amount",
    );
  }
  if (new MoneyDecimal(amount).greaterThan(p.maxAmount)) {
    throw new AppError(
      "LOAN_AMOUNT_ABOVE_MAXIMUM",
      { max: new MoneyDecimal(p.maxAmount).toFixed() },
      "amount",
    );
  }
  if (!p.cycleDays.includes(cycleDays)) {
    throw new AppError("LOAN_CYCLE_INVALID", {}, "cycle_days");
  }
}

/**
 * What the user sees before applying: interest, total repayment, the due day if disbursed today, the
 * interest-free grace days (policy `loans.graceDays`) and the late fee a day after them.
 */
export async function quoteLoan(db: DbOrTx, input: TLoanQuoteRequest, now = new Date()) {
  const p = await getEnabledProduct(db, input.product_id);
  checkTerms(p, input.amount, input.cycle_days);
  return {
    productId: p.id,
    currency: p.currency,
    ...loanQuote({
      amount: input.amount,
      cycleDays: input.cycle_days,
      dailyRate: p.dailyRate,
      overdueRate: p.overdueRate,
      graceDays: await getPolicy(db, "loans.graceDays"),
      startDay: utcDay(now),
    }),
  };
}

/** The USDT value of the principal still out (or waiting for review) on the user's loans. */
async function usedLimitUsdt(db: DbOrTx, prices: PriceProvider, userId: number, exceptLoanId?: number) {
  const rows = await db
    .select({
      currency: loans.currency,
      principal: sql<string>`sum(${loans.amount} - ${loans.paidPrincipal})`,
    })
    .from(loans)
    .where(
      and(
        eq(loans.userId, userId),
        inArray(loans.status, [...LOAN_LIMIT_STATUSES]),
        exceptLoanId === undefined ? undefined : sql`${loans.id} <> ${exceptLoanId}`,
      ),
    )
    .groupBy(loans.currency)
    .orderBy(loans.currency);
  let used = new MoneyDecimal(0);
  for (const r of rows) {
    const usdt = await valueInUsdt(prices, r.currency, new MoneyDecimal(r.principal).toFixed());
    if (usdt === null) {
      throw new AppError("PRICE_UNAVAILABLE");
    }
    used = used.plus(usdt);
  }
  return used;
}

/**
 * The user's loan limit: the credit score's limit (policy `kyc.credit.loanLimits`; the score counts
 * the verification levels), what their loans already use, and what is left. Needs primary KYC.
 */
export async function getLoanLimit(db: DbOrTx, prices: PriceProvider, userId: number, now = new Date()) {
  const credit = await getCreditScore(db, userId, now);
  const used = await usedLimitUsdt(db, prices, userId);
  const limit = new MoneyDecimal(credit.loanLimitUsdt);
  return {
    score: credit.score,
    limitUsdt: limit.toFixed(),
    usedUsdt: used.toFixed(),
    availableUsdt: MoneyDecimal.max(0, limit.minus(used)).toFixed(),
  };
}

/** Refuses ("exceeded loan limit") when the amount does not fit in what is left of the limit. */
async function assertWithinLimit(
  db: DbOrTx,
  prices: PriceProvider,
  userId: number,
  currency: string,
  amount: string,
  now: Date,
  exceptLoanId?: number,
) {
  const credit = await getCreditScore(db, userId, now);
  const used = await usedLimitUsdt(db, prices, userId, exceptLoanId);
  const usdt = await valueInUsdt(prices, currency, amount);
  if (usdt === null) {
    throw new AppError("PRICE_UNAVAILABLE");
  }
  if (used.plus(usdt).greaterThan(credit.loanLimitUsdt)) {
    throw new AppError("LOAN_LIMIT_EXCEEDED", {}, "amount");
  }
}

/** The proofs policy asks for (`loans.requiredProofs`), each the applicant's own upload. */
async function collectProofs(
  db: DbOrTx,
  userId: number,
  input: Partial<Record<`${(typeof LOAN_PROOF_KINDS)[number]}_upload_id`, string>>,
  previous: Record<string, string> = {},
) {
  const required = await getPolicy(db, "loans.requiredProofs");
  const proofs: Record<string, string> = {};
  for (const kind of LOAN_PROOF_KINDS) {
    const field = `${kind}_upload_id` as const;
    const id = input[field] ?? previous[kind];
    if (id === undefined) {
      if (required.includes(kind)) {
        throw new AppError("PROOF_REQUIRED", {}, field);
      }
      continue;
    }
    if ((await uploadOwner(db, id)) !== userId) {
      throw new AppError("PROOF_REQUIRED", {}, field);
    }
    proofs[kind] = id;
  }
  return proofs;
}

/** Serialises one user's applications, so two at once cannot both fit in the same limit. */
const lockUser = (tx: DbOrTx, userId: number) =>
  tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`loans:${userId}`}, 0))`);

/**
 * A user applies: advanced KYC, the loan agreement ticked, the proofs uploaded, the amount and period
 * within the product, and the amount within what is left of the credit limit. The loan waits for
 * review (`unreviewed`) with the terms of the quote.
 */
export async function applyForLoan(
  db: Db,
  prices: PriceProvider,
  user: User,
  input: TLoanApplyRequest,
  now = new Date(),
) {
  if (user.kind !== "real") {
    throw new AppError("REAL_ACCOUNT_REQUIRED");
  }
  if (!input.agree) {
    throw new AppError("AGREEMENT_REQUIRED", {}, "agree");
  }
  await assertGate(db, user.id, "loans");
  return db.transaction(async (tx) => {
    await lockUser(tx, user.id);
    const quote = await quoteLoan(tx, input, now);
    const proofs = await collectProofs(tx, user.id, input);
    await assertWithinLimit(tx, prices, user.id, quote.currency, quote.amount, now);
    const [p] = await tx.select().from(loanProducts).where(eq(loanProducts.id, input.product_id));
    const [loan] = await tx
      .insert(loans)
      .values({
        userId: user.id,
        productId: input.product_id,
        lender: p?.name ?? "",
        currency: quote.currency,
        amount: quote.amount,
        cycleDays: quote.cycleDays,
        dailyRate: quote.dailyRate,
        overdueRate: quote.overdueRate,
        interest: quote.interest,
        graceDays: quote.graceDays,
        proofs,
        appliedAt: now,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    if (!loan) {
      throw new AppError("REQUEST_ERROR");
    }
    return loanView(loan);
  });
}

/** One of the user's own loans, locked; another user's id finds nothing. */
export async function lockUserLoan(tx: DbOrTx, userId: number, loanId: number): Promise<Loan> {
  const [l] = await tx
    .select()
    .from(loans)
    .where(and(eq(loans.id, loanId), eq(loans.userId, userId)))
    .for("update");
  if (!l) {
    throw new AppError("LOAN_NOT_FOUND", {}, "loan_id");
  }
  return l;
}

/** The user withdraws an application while it waits for review. */
export async function withdrawLoan(db: Db, user: User, loanId: number, now = new Date()) {
  return db.transaction(async (tx) => {
    const l = await lockUserLoan(tx, user.id, loanId);
    if (
      l.status !== "unreviewed" ||
      !(await transition(tx, {
        machine: loanMachine,
        table: loans,
        id: l.id,
        from: "unreviewed",
        to: "withdrawn",
        by: "user",
        set: { updatedAt: now },
      }))
    ) {
      throw new AppError("LOAN_NOT_ALLOWED");
    }
    return loanView({ ...l, status: "withdrawn", updatedAt: now });
  });
}

/**
 * The user reapplies a rejected or withdrawn application: the same terms, new proofs where given,
 * and every check of a first application again (KYC, agreement, proofs, limit).
 */
export async function reapplyLoan(
  db: Db,
  prices: PriceProvider,
  user: User,
  input: TLoanReapplyRequest,
  now = new Date(),
) {
  if (!input.agree) {
    throw new AppError("AGREEMENT_REQUIRED", {}, "agree");
  }
  await assertGate(db, user.id, "loans");
  return db.transaction(async (tx) => {
    await lockUser(tx, user.id);
    const l = await lockUserLoan(tx, user.id, input.loan_id);
    if (l.status !== "rejected" && l.status !== "withdrawn") {
      throw new AppError("LOAN_NOT_ALLOWED");
    }
    const p = await getEnabledProduct(tx, l.productId);
    checkTerms(p, l.amount, l.cycleDays);
    const proofs = await collectProofs(tx, user.id, input, l.proofs);
    await assertWithinLimit(tx, prices, user.id, l.currency, l.amount, now, l.id);
    await transition(tx, {
      machine: loanMachine,
      table: loans,
      id: l.id,
      from: l.status,
      to: "unreviewed",
      by: "user",
      set: { proofs, rejectReason: null, reviewedBy: null, appliedAt: now, updatedAt: now },
    });
    const [after] = await tx.select().from(loans).where(eq(loans.id, l.id));
    return loanView(after as Loan);
  });
}
