import {
  allocateRepayment,
  type TLoanRepayRequest,
  type TLoanWireRepayRequest,
} from "@northstar/shared/contracts/loans";
import { MoneyDecimal } from "@northstar/shared/money";
import {
  LOAN_OUTSTANDING_STATUSES,
  loanMachine,
  loanWireRepaymentMachine,
} from "@northstar/shared/state-machines";
import { and, desc, eq, inArray, sql } from "drizzle-orm";
import { recordAudit } from "../audit/index.ts";
import type { Db, DbOrTx } from "../db/client.ts";
import { AppError } from "../errors.ts";
import type { OnceRecorder } from "../idempotency/index.ts";
import type { User } from "../identity/index.ts";
import { type AccountRef, postEntry } from "../ledger/index.ts";
import { transition } from "../state/index.ts";
import { uploadOwner } from "../uploads/index.ts";
import { lockUserLoan } from "./apply.ts";
import { loanRepayments, loans } from "./loans.table.ts";
import { accrueLateFees } from "./overdue.ts";
import { lockLoan } from "./review.ts";
import { type Loan, loanView, owedParts } from "./view.ts";

const isOutstanding = (l: Loan) => (LOAN_OUTSTANDING_STATUSES as readonly string[]).includes(l.status);

/**
 * Applies `amount` to a locked loan, late fees first, then interest, then principal: the money leaves
 * `source` and lands in `loan_late_fees`, `loan_interest` and `loans_pool` (one ledger entry, keyed
 * by the repayment). The loan becomes `repaying`, or `cleared` when nothing is owed any more.
 */
async function applyRepayment(
  tx: DbOrTx,
  l: Loan,
  repaymentId: number,
  amount: string,
  source: AccountRef,
  by: "user" | "operator",
  now: Date,
) {
  const owed = owedParts(l);
  if (new MoneyDecimal(amount).greaterThan(owed.total)) {
    throw new AppError("LOAN_REPAY_EXCEEDS", { owed: owed.total }, "amount");
  }
  const split = allocateRepayment(amount, owed);
  const pool = (system: "loans_pool" | "loan_interest" | "loan_late_fees", value: string) => ({
    account: { system, book: "real" as const, currency: l.currency },
    amount: value,
  });
  await postEntry(tx, {
    idempotencyKey: `loan:repayment:${repaymentId}`,
    kind: "loan.repay",
    reference: { type: "loan", id: l.id },
    postings: [
      { account: source, amount: `-${amount}` },
      pool("loan_late_fees", split.lateFees),
      pool("loan_interest", split.interest),
      pool("loans_pool", split.principal),
    ].filter((p) => !new MoneyDecimal(p.amount).isZero()),
  });
  await tx
    .update(loanRepayments)
    .set({ ...split, status: "confirmed", confirmedAt: now, updatedAt: now })
    .where(eq(loanRepayments.id, repaymentId));
  const [after] = await tx
    .update(loans)
    .set({
      paidPrincipal: sql`${loans.paidPrincipal} + ${split.principal}`,
      paidInterest: sql`${loans.paidInterest} + ${split.interest}`,
      paidLateFees: sql`${loans.paidLateFees} + ${split.lateFees}`,
      updatedAt: now,
    })
    .where(eq(loans.id, l.id))
    .returning();
  const cleared = new MoneyDecimal(owedParts(after as Loan).total).isZero();
  const to = cleared ? "cleared" : l.status === "disbursed" ? "repaying" : null;
  if (to) {
    await transition(tx, {
      machine: loanMachine,
      table: loans,
      id: l.id,
      from: l.status,
      to,
      by,
      set: cleared ? { clearedAt: now, updatedAt: now } : { updatedAt: now },
    });
  }
  const [final] = await tx.select().from(loans).where(eq(loans.id, l.id));
  return { loan: loanView(final as Loan), split };
}

/**
 * The user repays from the exchange wallet of the loan's currency, part or all of what is owed
 * (late fees charged up to now included). The loan row is locked, so two repayments at once apply
 * one after the other and never pay more than is owed; with an idempotency key a repeated request
 * applies once.
 */
export async function repayFromBalance(
  db: Db,
  user: User,
  input: TLoanRepayRequest,
  now = new Date(),
  once?: OnceRecorder,
) {
  return db.transaction(async (tx) => {
    const locked = await lockUserLoan(tx, user.id, input.loan_id);
    if (!isOutstanding(locked)) {
      throw new AppError("LOAN_NOTHING_OWED");
    }
    const l = await accrueLateFees(tx, locked, now);
    const [r] = await tx
      .insert(loanRepayments)
      .values({
        loanId: l.id,
        userId: user.id,
        method: "balance",
        amount: input.amount,
        status: "confirmed",
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: loanRepayments.id });
    if (!r) {
      throw new AppError("REQUEST_ERROR");
    }
    const source = {
      userId: user.id,
      book: "real" as const,
      wallet: "exchange" as const,
      currency: l.currency,
    };
    const result = await applyRepayment(tx, l, r.id, input.amount, source, "user", now);
    const answer = { repaymentId: r.id, ...result };
    await once?.record(tx, answer);
    return answer;
  });
}

/**
 * The user reports a wire repayment with its proof; it waits for an operator. The amount may not
 * exceed what is owed now. With an idempotency key the answer is recorded in the transaction that
 * files the repayment, so a retry after a crash between the two cannot file a second one.
 */
export async function submitWireRepayment(
  db: Db,
  user: User,
  input: TLoanWireRepayRequest,
  now = new Date(),
  once?: OnceRecorder,
) {
  return db.transaction(async (tx) => {
    const locked = await lockUserLoan(tx, user.id, input.loan_id);
    if (!isOutstanding(locked)) {
      throw new AppError("LOAN_NOTHING_OWED");
    }
    if ((await uploadOwner(tx, input.upload_id)) !== user.id) {
      throw new AppError("PROOF_REQUIRED", {}, "upload_id");
    }
    const l = await accrueLateFees(tx, locked, now);
    const owed = owedParts(l).total;
    if (new MoneyDecimal(input.amount).greaterThan(owed)) {
      throw new AppError("LOAN_REPAY_EXCEEDS", { owed }, "amount");
    }
    const [r] = await tx
      .insert(loanRepayments)
      .values({
        loanId: l.id,
        userId: user.id,
        method: "wire",
        amount: input.amount,
        uploadId: input.upload_id,
        status: "pending",
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    const answer = r as typeof loanRepayments.$inferSelect;
    await once?.record(tx, answer);
    return answer;
  });
}

type Review = { repaymentId: number; operatorId: number; actor: string };

async function lockPendingWire(tx: DbOrTx, id: number) {
  const [r] = await tx.select().from(loanRepayments).where(eq(loanRepayments.id, id)).for("update");
  if (r?.method !== "wire") {
    throw new AppError("NOT_FOUND", {}, "repayment_id");
  }
  if (r.status !== "pending") {
    throw new AppError("ALREADY_REVIEWED");
  }
  return r;
}

/**
 * An operator confirms a wire repayment after seeing the money arrive: it is applied to the loan
 * like a repayment from the balance, the money coming from the `deposit_clearing:loan_wire` account.
 */
export async function confirmWireRepayment(db: Db, params: Review, now = new Date()) {
  return db.transaction(async (tx) => {
    const r = await lockPendingWire(tx, params.repaymentId);
    const locked = await lockLoan(tx, r.loanId);
    if (!isOutstanding(locked)) {
      throw new AppError("LOAN_NOTHING_OWED");
    }
    const l = await accrueLateFees(tx, locked, now);
    await transition(tx, {
      machine: loanWireRepaymentMachine,
      table: loanRepayments,
      id: r.id,
      from: "pending",
      to: "confirmed",
      by: "operator",
      set: { reviewedBy: params.operatorId, updatedAt: now },
    });
    const source = {
      system: "deposit_clearing:loan_wire" as const,
      book: "real" as const,
      currency: l.currency,
    };
    const result = await applyRepayment(tx, l, r.id, r.amount, source, "operator", now);
    await recordAudit(tx, {
      actor: params.actor,
      action: "loans.wire.confirm",
      subject: String(r.id),
      details: { loanId: l.id, amount: r.amount, ...result.split },
    });
    return result;
  });
}

export async function rejectWireRepayment(db: Db, params: Review & { reason: string }, now = new Date()) {
  return db.transaction(async (tx) => {
    const r = await lockPendingWire(tx, params.repaymentId);
    await transition(tx, {
      machine: loanWireRepaymentMachine,
      table: loanRepayments,
      id: r.id,
      from: "pending",
      to: "rejected",
      by: "operator",
      set: { rejectReason: params.reason, reviewedBy: params.operatorId, updatedAt: now },
    });
    await recordAudit(tx, {
      actor: params.actor,
      action: "loans.wire.reject",
      subject: String(r.id),
      details: { reason: params.reason },
    });
  });
}

/** A loan's repayments, latest first (the user's own loan only when `userId` is given). */
export async function listRepayments(db: DbOrTx, loanId: number, userId?: number) {
  const rows = await db
    .select()
    .from(loanRepayments)
    .where(
      and(
        eq(loanRepayments.loanId, loanId),
        userId === undefined ? undefined : eq(loanRepayments.userId, userId),
      ),
    )
    .orderBy(desc(loanRepayments.createdAt), desc(loanRepayments.id));
  return rows.map(repaymentView);
}

/** Wire repayments for the back office, optionally of some statuses, latest first. */
export async function listWireRepayments(
  db: DbOrTx,
  statuses: string[] | undefined,
  page: number,
  pageSize: number,
) {
  const rows = await db
    .select()
    .from(loanRepayments)
    .where(
      and(
        eq(loanRepayments.method, "wire"),
        statuses?.length ? inArray(loanRepayments.status, statuses as never) : undefined,
      ),
    )
    .orderBy(desc(loanRepayments.createdAt), desc(loanRepayments.id))
    .limit(pageSize)
    .offset((page - 1) * pageSize);
  return rows.map(repaymentView);
}

export function repaymentView(r: typeof loanRepayments.$inferSelect) {
  const c = (v: string | null) => (v === null ? null : new MoneyDecimal(v).toFixed(2));
  return {
    id: r.id,
    loanId: r.loanId,
    userId: r.userId,
    method: r.method,
    amount: new MoneyDecimal(r.amount).toFixed(2),
    lateFees: c(r.lateFees),
    interest: c(r.interest),
    principal: c(r.principal),
    uploadId: r.uploadId,
    status: r.status,
    rejectReason: r.rejectReason,
    createdAt: r.createdAt,
    confirmedAt: r.confirmedAt,
  };
}
