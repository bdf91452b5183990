import { addLoanDays, LOAN_MONEY_DECIMALS } from "@northstar/shared/contracts/loans";
import { MoneyDecimal } from "@northstar/shared/money";
import type { LoanStatus } from "@northstar/shared/state-machines";
import type { loans } from "./loans.table.ts";

export type Loan = typeof loans.$inferSelect;

const c = (v: string | number | InstanceType<typeof MoneyDecimal>) =>
  new MoneyDecimal(v).toFixed(LOAN_MONEY_DECIMALS);

/** The unpaid parts of a loan (nothing before disbursement). */
export function owedParts(l: Loan) {
  const out = l.status === "disbursed" || l.status === "repaying" || l.status === "overdue";
  const principal = out ? new MoneyDecimal(l.amount).minus(l.paidPrincipal) : new MoneyDecimal(0);
  const interest = out ? new MoneyDecimal(l.interest).minus(l.paidInterest) : new MoneyDecimal(0);
  const lateFees = out ? new MoneyDecimal(l.lateFees).minus(l.paidLateFees) : new MoneyDecimal(0);
  return {
    principal: c(principal),
    interest: c(interest),
    lateFees: c(lateFees),
    total: c(principal.plus(interest).plus(lateFees)),
  };
}

/** The contract number shown to the user and operators. */
export const contractNo = (id: number) => `LN${String(id).padStart(8, "0")}`;

/** A loan with every field of SPEC section 3, and what is owed now. */
export function loanView(l: Loan) {
  return {
    id: l.id,
    contractNo: contractNo(l.id),
    productId: l.productId,
    lender: l.lender,
    currency: l.currency,
    amount: c(l.amount),
    cycleDays: l.cycleDays,
    dailyRate: new MoneyDecimal(l.dailyRate).toFixed(),
    overdueRate: new MoneyDecimal(l.overdueRate).toFixed(),
    interest: c(l.interest),
    total: c(new MoneyDecimal(l.amount).plus(l.interest)),
    lateFees: c(l.lateFees),
    overdueDays: l.overdueDays,
    graceDays: l.graceDays,
    paid: c(new MoneyDecimal(l.paidPrincipal).plus(l.paidInterest).plus(l.paidLateFees)),
    owed: owedParts(l),
    status: l.status as LoanStatus,
    rejectReason: l.rejectReason,
    proofs: l.proofs,
    appliedAt: l.appliedAt,
    disbursedAt: l.disbursedAt,
    startDay: l.startDay,
    dueDay: l.dueDay,
    graceEndDay: l.dueDay ? addLoanDays(l.dueDay, l.graceDays) : null,
    clearedAt: l.clearedAt,
  };
}
export type LoanView = ReturnType<typeof loanView>;
