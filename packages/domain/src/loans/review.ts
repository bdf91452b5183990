import { addLoanDays } from "@northstar/shared/contracts/loans";
import { loanMachine } from "@northstar/shared/state-machines";
import { eq } from "drizzle-orm";
import { recordAudit } from "../audit/index.ts";
import type { Db, DbOrTx } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { postEntry } from "../ledger/index.ts";
import { addMessage } from "../messages/index.ts";
import { transition } from "../state/index.ts";
import { loans } from "./loans.table.ts";
import { type Loan, loanView } from "./view.ts";

type Operator = { operatorId: number; actor: string };

export async function lockLoan(tx: DbOrTx, loanId: number): Promise<Loan> {
  const [l] = await tx.select().from(loans).where(eq(loans.id, loanId)).for("update");
  if (!l) {
    throw new AppError("LOAN_NOT_FOUND", {}, "loan_id");
  }
  return l;
}

/**
 * An operator approves an application, which disburses it: the principal moves from the `loans_pool`
 * account to the user's exchange wallet (once: the ledger key is the loan's), and the loan runs from
 * today (UTC) to today + its period. A second approval finds it no longer unreviewed.
 */
export async function approveLoan(db: Db, params: Operator & { loanId: number }, now = new Date()) {
  return db.transaction(async (tx) => {
    const l = await lockLoan(tx, params.loanId);
    const startDay = now.toISOString().slice(0, 10);
    const dueDay = addLoanDays(startDay, l.cycleDays);
    const ok =
      l.status === "unreviewed" &&
      (await transition(tx, {
        machine: loanMachine,
        table: loans,
        id: l.id,
        from: "unreviewed",
        to: "disbursed",
        by: "operator",
        set: { disbursedAt: now, startDay, dueDay, reviewedBy: params.operatorId, updatedAt: now },
      }));
    if (!ok) {
      throw new AppError("ALREADY_REVIEWED");
    }
    await postEntry(tx, {
      idempotencyKey: `loan:${l.id}:disburse`,
      kind: "loan.disburse",
      reference: { type: "loan", id: l.id },
      postings: [
        { account: { system: "loans_pool", book: "real", currency: l.currency }, amount: `-${l.amount}` },
        {
          account: { userId: l.userId, book: "real", wallet: "exchange", currency: l.currency },
          amount: l.amount,
        },
      ],
    });
    await recordAudit(tx, {
      actor: params.actor,
      action: "loans.approve",
      subject: String(l.id),
      details: { amount: l.amount, currency: l.currency, dueDay },
    });
    await addMessage(tx, {
      userId: l.userId,
      kind: "loan.approved",
      params: { amount: l.amount, currency: l.currency, dueDay },
      eventKey: `loan:${l.id}:approved`,
    });
    const [after] = await tx.select().from(loans).where(eq(loans.id, l.id));
    return loanView(after as Loan);
  });
}

/** An operator rejects an application with a reason the user sees; the user may reapply. */
export async function rejectLoan(
  db: Db,
  params: Operator & { loanId: number; reason: string },
  now = new Date(),
) {
  return db.transaction(async (tx) => {
    const l = await lockLoan(tx, params.loanId);
    const ok =
      l.status === "unreviewed" &&
      (await transition(tx, {
        machine: loanMachine,
        table: loans,
        id: l.id,
        from: "unreviewed",
        to: "rejected",
        by: "operator",
        set: { rejectReason: params.reason, reviewedBy: params.operatorId, updatedAt: now },
      }));
    if (!ok) {
      throw new AppError("ALREADY_REVIEWED");
    }
    await recordAudit(tx, {
      actor: params.actor,
      action: "loans.reject",
      subject: String(l.id),
      details: { reason: params.reason },
    });
    // A rejected loan may be reapplied and rejected again: each review round is its own event.
    await addMessage(tx, {
      userId: l.userId,
      kind: "loan.rejected",
      params: { amount: l.amount, currency: l.currency, reason: params.reason },
      eventKey: `loan:${l.id}:rejected:${l.updatedAt.toISOString()}`,
    });
    return loanView({ ...l, status: "rejected", rejectReason: params.reason, updatedAt: now });
  });
}
