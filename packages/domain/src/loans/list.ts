import type { LoanStatus } from "@northstar/shared/state-machines";
import { and, count, desc, eq, inArray, sql } from "drizzle-orm";
import type { DbOrTx } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { registerRepaymentHistory } from "../kyc/index.ts";
import { loans } from "./loans.table.ts";
import { listRepayments } from "./repay.ts";
import { type Loan, loanView } from "./view.ts";

/** The user's loans, latest application first. */
export async function listUserLoans(
  db: DbOrTx,
  userId: number,
  page: number,
  pageSize: number,
  statuses?: LoanStatus[],
) {
  const where = and(eq(loans.userId, userId), statuses?.length ? inArray(loans.status, statuses) : undefined);
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(loans)
      .where(where)
      .orderBy(desc(loans.appliedAt), desc(loans.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db.select({ n: count() }).from(loans).where(where),
  ]);
  return { items: rows.map(loanView), total: total?.n ?? 0 };
}

/** One of the user's own loans with its repayments; another user's id finds nothing. */
export async function getUserLoan(db: DbOrTx, userId: number, loanId: number) {
  const [l] = await db
    .select()
    .from(loans)
    .where(and(eq(loans.id, loanId), eq(loans.userId, userId)));
  if (!l) {
    throw new AppError("LOAN_NOT_FOUND", {}, "loan_id");
  }
  return { ...loanView(l), repayments: await listRepayments(db, l.id, userId) };
}

/** Loans for the back office (review queue, disbursed, overdue list), optionally by status. */
export async function listLoansForReview(
  db: DbOrTx,
  statuses: LoanStatus[] | undefined,
  page: number,
  pageSize: number,
) {
  const where = statuses?.length ? inArray(loans.status, statuses) : undefined;
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(loans)
      .where(where)
      .orderBy(desc(loans.appliedAt), desc(loans.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db.select({ n: count() }).from(loans).where(where),
  ]);
  return { items: rows.map((l: Loan) => ({ ...loanView(l), userId: l.userId })), total: total?.n ?? 0 };
}

/** One loan for an operator, with its repayments. */
export async function getLoanForOperator(db: DbOrTx, loanId: number) {
  const [l] = await db.select().from(loans).where(eq(loans.id, loanId));
  if (!l) {
    throw new AppError("LOAN_NOT_FOUND", {}, "loan_id");
  }
  return { ...loanView(l), userId: l.userId, repayments: await listRepayments(db, l.id) };
}

/**
 * The credit score's repayment history: a loan cleared without a late-fee day counts on time; a
 * loan with any late-fee day (cleared or still overdue) counts late, which lowers the score.
 */
export async function repaymentHistory(db: DbOrTx, userId: number) {
  const [row] = await db
    .select({
      onTime: sql<number>`(count(*) filter (where ${loans.status} = 'cleared' and ${loans.overdueDays} = 0))::int`,
      late: sql<number>`(count(*) filter (where ${loans.overdueDays} > 0))::int`,
    })
    .from(loans)
    .where(eq(loans.userId, userId));
  return { onTime: Number(row?.onTime ?? 0), late: Number(row?.late ?? 0) };
}

registerRepaymentHistory(repaymentHistory);
