import { loanInterest, loanLateFee } from "@northstar/shared/contracts/loans";
import { MoneyDecimal } from "@northstar/shared/money";
import { eq } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../db/client.ts";
import type { User } from "../identity/index.ts";
import { createFixedPriceProvider } from "../markets/index.ts";
import { setPolicy } from "../policy/index.ts";
import { accrueLoan, applyForLoan, approveLoan, loanLateFeeDays, loans, repayFromBalance } from "./index.ts";
import {
  borrower,
  expectReconciled,
  openLoansDb,
  product,
  proofs,
  systemBalance,
  usdt,
} from "./test/helpers.ts";

/**
 * Interest and late fees to the cent over random schedules: a loan of a random amount, rates and
 * period is disbursed on a random day; on random later days the overdue job runs (sometimes twice,
 * sometimes not for days) and the user repays random shares of what is owed. A reference model,
 * written here day by day, says what every part must be; the ledger must agree with it.
 */
let db: Db;
let dir: string;
let close: () => Promise<void>;
let user: User;
let docs: Awaited<ReturnType<typeof proofs>>;
const prices = createFixedPriceProvider();
const op = { operatorId: 1, actor: "operator:1" };
const DAY = 86_400_000;

beforeAll(async () => {
  const opened = await openLoansDb();
  db = opened.db;
  dir = opened.uploadDir;
  close = opened.close;
  user = await borrower(db, dir, "10000000");
  docs = await proofs(db, dir, user);
  await setPolicy(db, "kyc.credit.loanLimits", [{ minScore: 0, limitUsdt: "100000000" }], "test");
});
afterAll(async () => {
  await close?.();
});

type Event = { day: number; second: number; kind: "run" | "repay"; share: number };

/** The reference: what each part of the loan must be after the events, day by day. */
function model(
  p: { amount: string; rate: string; overdue: string; cycle: number; grace: number },
  events: Event[],
) {
  const D = (v: string | number) => new MoneyDecimal(v);
  const interest = loanInterest(p.amount, p.rate, p.cycle);
  const s = {
    lateFees: D(0),
    overdueDays: 0,
    paidPrincipal: D(0),
    paidInterest: D(0),
    paidLateFees: D(0),
    cleared: false,
    repaid: D(0),
  };
  const owed = () => ({
    lateFees: s.lateFees.minus(s.paidLateFees),
    interest: D(interest).minus(s.paidInterest),
    principal: D(p.amount).minus(s.paidPrincipal),
  });
  const accrue = (day: number) => {
    const due = Math.max(0, day - (p.cycle + p.grace));
    for (let k = s.overdueDays + 1; k <= due && !s.cleared; k++) {
      s.lateFees = s.lateFees.plus(loanLateFee(D(p.amount).minus(s.paidPrincipal).toFixed(), p.overdue));
      s.overdueDays = k;
    }
  };
  const amounts: (string | null)[] = [];
  for (const e of events) {
    accrue(e.day);
    if (e.kind === "run") {
      amounts.push(null);
      continue;
    }
    const o = owed();
    const total = o.lateFees.plus(o.interest).plus(o.principal);
    const amount = MoneyDecimal.max("0.01", total.times(e.share).toDecimalPlaces(2, MoneyDecimal.ROUND_DOWN));
    if (s.cleared || total.isZero()) {
      amounts.push(null);
      continue;
    }
    amounts.push(amount.toFixed(2));
    let left = amount;
    for (const part of ["lateFees", "interest", "principal"] as const) {
      const take = MoneyDecimal.min(left, o[part]);
      left = left.minus(take);
      if (part === "lateFees") {
        s.paidLateFees = s.paidLateFees.plus(take);
      }
      if (part === "interest") {
        s.paidInterest = s.paidInterest.plus(take);
      }
      if (part === "principal") {
        s.paidPrincipal = s.paidPrincipal.plus(take);
      }
    }
    s.repaid = s.repaid.plus(amount);
    const after = owed();
    s.cleared = after.lateFees.plus(after.interest).plus(after.principal).isZero();
  }
  return { interest, amounts, ...s };
}

const rate = fc.integer({ min: 0, max: 99_999 }).map((n) => new MoneyDecimal(n).dividedBy(1e7).toFixed());
const schedule = fc.record({
  amount: fc.integer({ min: 10_000, max: 500_000 }).map((c) => new MoneyDecimal(c).dividedBy(100).toFixed()),
  rate,
  overdue: rate,
  cycle: fc.constantFrom(7, 14, 30),
  startMs: fc.integer({ min: Date.parse("2026-01-01T00:00:00Z"), max: Date.parse("2026-12-01T00:00:00Z") }),
  events: fc
    .array(
      fc.record({
        day: fc.integer({ min: 0, max: 50 }),
        second: fc.integer({ min: 0, max: 86_399 }),
        kind: fc.constantFrom("run" as const, "run" as const, "repay" as const),
        share: fc.constantFrom(0.05, 0.1, 0.33, 0.5, 1),
      }),
      { maxLength: 8 },
    )
    .map((es) => es.sort((a, b) => a.day - b.day || a.second - b.second)),
});

describe("interest and late fees", () => {
  it("match the reference model to the cent over random schedules, and the ledger agrees", async () => {
    const grace = 3;
    await fc.assert(
      fc.asyncProperty(schedule, async (s) => {
        const p = await product(db, {
          cycle_days: [s.cycle],
          daily_rate: s.rate,
          overdue_rate: s.overdue,
          max_amount: "5000",
        });
        const start = new Date(Math.floor(s.startMs / DAY) * DAY);
        const when = (e: { day: number; second: number }) =>
          new Date(start.getTime() + e.day * DAY + e.second * 1000);
        const loan = await applyForLoan(
          db,
          prices,
          user,
          { product_id: p.id, amount: s.amount, cycle_days: s.cycle, agree: true, ...docs },
          start,
        );
        await approveLoan(db, { loanId: loan.id, ...op }, start);
        const before = {
          user: await usdt(db, user.id),
          fees: await systemBalance(db, "loan_late_fees"),
          interest: await systemBalance(db, "loan_interest"),
          pool: await systemBalance(db, "loans_pool"),
        };
        const m = model({ ...s, grace }, s.events);
        for (const [i, e] of s.events.entries()) {
          const amount = m.amounts[i];
          if (e.kind === "run") {
            await accrueLoan(db, loan.id, when(e));
            // Delivered twice: nothing more.
            await accrueLoan(db, loan.id, when(e));
          } else if (amount) {
            await repayFromBalance(db, user, { loan_id: loan.id, amount }, when(e));
          }
        }
        const [row] = await db.select().from(loans).where(eq(loans.id, loan.id));
        const c = (v: string | InstanceType<typeof MoneyDecimal>) => new MoneyDecimal(v).toFixed(2);
        expect({
          interest: c(row?.interest ?? "0"),
          lateFees: c(row?.lateFees ?? "0"),
          overdueDays: row?.overdueDays,
          paidPrincipal: c(row?.paidPrincipal ?? "0"),
          paidInterest: c(row?.paidInterest ?? "0"),
          paidLateFees: c(row?.paidLateFees ?? "0"),
          cleared: row?.status === "cleared",
        }).toEqual({
          interest: m.interest,
          lateFees: c(m.lateFees),
          overdueDays: m.overdueDays,
          paidPrincipal: c(m.paidPrincipal),
          paidInterest: c(m.paidInterest),
          paidLateFees: c(m.paidLateFees),
          cleared: m.cleared,
        });
        const feeDays = await db.select().from(loanLateFeeDays).where(eq(loanLateFeeDays.loanId, loan.id));
        expect(feeDays).toHaveLength(m.overdueDays);
        const delta = async (code: string, was: string) =>
          c(new MoneyDecimal(await systemBalance(db, code)).minus(was));
        expect(c(new MoneyDecimal(before.user).minus(await usdt(db, user.id)))).toBe(c(m.repaid));
        expect(await delta("loan_late_fees", before.fees)).toBe(c(m.paidLateFees));
        expect(await delta("loan_interest", before.interest)).toBe(c(m.paidInterest));
        expect(await delta("loans_pool", before.pool)).toBe(c(m.paidPrincipal));
      }),
      { numRuns: 25 },
    );
    await expectReconciled(db);
  });
});
