import { LOAN_OUTSTANDING_STATUSES } from "@northstar/shared/state-machines";
import { sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";

const money = () => numeric({ precision: 38, scale: 18 });
const rate = () => numeric({ precision: 12, scale: 8 });

/**
 * A loan product: the currency lent, the periods offered (days), the daily interest rate, the daily
 * late-fee rate once overdue, and the amount range per loan. Disabled products take no applications.
 */
export const loanProducts = pgTable(
  "loan_products",
  {
    id: bigserial({ mode: "number" }).primaryKey(),
    name: text().notNull(),
    currency: text().notNull(),
    cycleDays: integer().array().notNull(),
    dailyRate: rate().notNull(),
    overdueRate: rate().notNull(),
    minAmount: money().notNull(),
    maxAmount: money().notNull(),
    enabled: boolean().notNull().default(true),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check("loan_products_amount_range", sql`${t.minAmount} <= ${t.maxAmount}`)],
);

/**
 * The outstanding statuses as SQL literals: the partial index below and the overdue job's query must
 * write the same predicate for the planner to use the index (a bound parameter would not match it).
 */
export const OUTSTANDING = sql.raw(`(${LOAN_OUTSTANDING_STATUSES.map((s) => `'${s}'`).join(", ")})`);

/**
 * A loan (SPEC section 3). The rates, interest and grace days are fixed at application; the start and
 * due days at disbursement. `lateFees` is the sum of the late-fee days charged (`overdueDays` of
 * them, one row each in loan_late_fee_days); the paid columns say how much of each part is repaid.
 * Owed = (amount − paidPrincipal) + (interest − paidInterest) + (lateFees − paidLateFees).
 */
export const loans = pgTable(
  "loans",
  {
    id: bigserial({ mode: "number" }).primaryKey(),
    userId: bigint({ mode: "number" }).notNull(),
    productId: bigint({ mode: "number" }).notNull(),
    lender: text().notNull(),
    currency: text().notNull(),
    amount: money().notNull(),
    cycleDays: integer().notNull(),
    dailyRate: rate().notNull(),
    overdueRate: rate().notNull(),
    interest: money().notNull(),
    graceDays: integer().notNull(),
    lateFees: money().notNull().default("0"),
    overdueDays: integer().notNull().default(0),
    paidPrincipal: money().notNull().default("0"),
    paidInterest: money().notNull().default("0"),
    paidLateFees: money().notNull().default("0"),
    /** Upload id per proof kind (credit, housing, income, bank, id_photo). */
    proofs: jsonb().$type<Record<string, string>>().notNull(),
    status: text({
      enum: ["unreviewed", "disbursed", "repaying", "overdue", "cleared", "rejected", "withdrawn"],
    })
      .notNull()
      .default("unreviewed"),
    rejectReason: text(),
    reviewedBy: bigint({ mode: "number" }),
    appliedAt: timestamp({ withTimezone: true }).notNull(),
    disbursedAt: timestamp({ withTimezone: true }),
    startDay: date({ mode: "string" }),
    dueDay: date({ mode: "string" }),
    clearedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("loans_user_idx").on(t.userId, t.createdAt),
    index("loans_status_idx").on(t.status, t.id),
    // The overdue job walks the outstanding loans in id order, a batch at a time: this index yields them
    // in that order and stops at the batch's end, where (status, id) over three statuses has to collect
    // and sort every later loan for each batch.
    index("loans_outstanding_idx").on(t.id).where(sql`${t.status} in ${OUTSTANDING}`),
    check("loans_paid_principal", sql`${t.paidPrincipal} >= 0 and ${t.paidPrincipal} <= ${t.amount}`),
    check("loans_paid_interest", sql`${t.paidInterest} >= 0 and ${t.paidInterest} <= ${t.interest}`),
    check("loans_paid_late_fees", sql`${t.paidLateFees} >= 0 and ${t.paidLateFees} <= ${t.lateFees}`),
  ],
);

/** One late fee per loan and day: the unique index is the overdue job's idempotency key. */
export const loanLateFeeDays = pgTable(
  "loan_late_fee_days",
  {
    id: bigserial({ mode: "number" }).primaryKey(),
    loanId: bigint({ mode: "number" }).notNull(),
    day: date({ mode: "string" }).notNull(),
    /** The unpaid principal the fee was charged on. */
    base: money().notNull(),
    amount: money().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("loan_late_fee_days_loan_day").on(t.loanId, t.day)],
);

/**
 * A repayment: from the balance (applied at once, `confirmed`) or by wire with a proof an operator
 * confirms (`pending` until then). The split into late fees, interest and principal is recorded when
 * it is applied.
 */
export const loanRepayments = pgTable(
  "loan_repayments",
  {
    id: bigserial({ mode: "number" }).primaryKey(),
    loanId: bigint({ mode: "number" }).notNull(),
    userId: bigint({ mode: "number" }).notNull(),
    method: text({ enum: ["balance", "wire"] }).notNull(),
    amount: money().notNull(),
    lateFees: money(),
    interest: money(),
    principal: money(),
    uploadId: uuid(),
    status: text({ enum: ["pending", "confirmed", "rejected"] }).notNull(),
    rejectReason: text(),
    reviewedBy: bigint({ mode: "number" }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    confirmedAt: timestamp({ withTimezone: true }),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("loan_repayments_loan_idx").on(t.loanId, t.id),
    index("loan_repayments_status_idx").on(t.status, t.id),
  ],
);
