import { addLoanDays, loanFeeDaysDue, loanLateFee } from "@northstar/shared/contracts/loans";
import { MoneyDecimal } from "@northstar/shared/money";
import { LOAN_OUTSTANDING_STATUSES, loanMachine } from "@northstar/shared/state-machines";
import { and, asc, eq, gt, sql } from "drizzle-orm";
import type { Db, DbOrTx } from "../db/client.ts";
import { addMessage } from "../messages/index.ts";
import { transition } from "../state/index.ts";
import { loanLateFeeDays, loans, OUTSTANDING } from "./loans.table.ts";
import { lockLoan } from "./review.ts";
import type { Loan } from "./view.ts";

/**
 * Charges a locked loan's late-fee days due by `now` and not yet charged: day k after the due day
 * plus the grace days costs the unpaid principal × the overdue rate (to the cent), once per loan and
 * day (the unique (loan, day) row). Marks the loan overdue with its days. Repayments call this
 * first, so every day is charged on the principal unpaid when that day began. Returns the loan as
 * it is afterwards.
 */
export async function accrueLateFees(tx: DbOrTx, l: Loan, now: Date): Promise<Loan> {
  if (!(LOAN_OUTSTANDING_STATUSES as readonly string[]).includes(l.status) || !l.dueDay) {
    return l;
  }
  const due = loanFeeDaysDue(l.dueDay, l.graceDays, now.toISOString().slice(0, 10));
  if (due <= l.overdueDays) {
    return l;
  }
  const base = new MoneyDecimal(l.amount).minus(l.paidPrincipal).toFixed();
  const fee = loanLateFee(base, l.overdueRate);
  const graceEnd = addLoanDays(l.dueDay, l.graceDays);
  const rows = [];
  for (let k = l.overdueDays + 1; k <= due; k++) {
    rows.push({ loanId: l.id, day: addLoanDays(graceEnd, k), base, amount: fee });
  }
  const inserted = await tx.insert(loanLateFeeDays).values(rows).onConflictDoNothing().returning();
  const added = inserted.reduce((s, r) => s.plus(r.amount), new MoneyDecimal(0));
  const [after] = await tx
    .update(loans)
    .set({ overdueDays: due, lateFees: sql`${loans.lateFees} + ${added.toFixed()}`, updatedAt: now })
    .where(eq(loans.id, l.id))
    .returning();
  if (l.status !== "overdue") {
    await transition(tx, {
      machine: loanMachine,
      table: loans,
      id: l.id,
      from: l.status,
      to: "overdue",
      by: "system",
      set: { updatedAt: now },
    });
    // Told once, when it becomes overdue, not with every day's fee.
    await addMessage(tx, {
      userId: l.userId,
      kind: "loan.overdue",
      params: { amount: l.amount, currency: l.currency, dueDay: l.dueDay, fee },
      eventKey: `loan:${l.id}:overdue`,
    });
  }
  return { ...(after as Loan), status: "overdue" };
}

/** The overdue job's unit of work: one loan, in its own transaction; safe to run any number of times. */
export async function accrueLoan(db: Db, loanId: number, now = new Date()): Promise<Loan> {
  return db.transaction(async (tx) => accrueLateFees(tx, await lockLoan(tx, loanId), now));
}

/**
 * The daily overdue run: every outstanding loan with late-fee days due by `now` and not charged, in
 * id order, `batch` at a time. After days without a run it charges every missed day (each once);
 * delivered twice, the second run finds nothing due.
 */
export async function runLoanOverdue(db: Db, now = new Date(), batch = 500) {
  const today = now.toISOString().slice(0, 10);
  let loansCharged = 0;
  let days = 0;
  let after = 0;
  for (;;) {
    const due = await db
      .select({ id: loans.id, overdueDays: loans.overdueDays })
      .from(loans)
      .where(
        and(
          sql`${loans.status} in ${OUTSTANDING}`,
          gt(loans.id, after),
          sql`${loans.overdueDays} < ${today}::date - (${loans.dueDay} + ${loans.graceDays})`,
        ),
      )
      .orderBy(asc(loans.id))
      .limit(batch);
    for (const row of due) {
      const l = await accrueLoan(db, row.id, now);
      if (l.overdueDays > row.overdueDays) {
        loansCharged += 1;
        days += l.overdueDays - row.overdueDays;
      }
      after = row.id;
    }
    if (due.length < batch) {
      return { loans: loansCharged, days, day: today };
    }
  }
}

/** The late-fee days charged on a loan, in day order. */
export async function listLateFeeDays(db: DbOrTx, loanId: number) {
  const rows = await db
    .select()
    .from(loanLateFeeDays)
    .where(eq(loanLateFeeDays.loanId, loanId))
    .orderBy(asc(loanLateFeeDays.day));
  return rows.map((r) => ({
    day: r.day,
    base: new MoneyDecimal(r.base).toFixed(2),
    amount: new MoneyDecimal(r.amount).toFixed(2),
  }));
}
