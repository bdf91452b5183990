import { translate } from "@northstar/shared/i18n";
import { MoneyDecimal } from "@northstar/shared/money";
import { POLICY } from "@northstar/shared/policy";
import { findTransition, type LoanStatus, loanMachine } from "@northstar/shared/state-machines";
import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../db/client.ts";
import { runOnce } from "../idempotency/index.ts";
import type { User } from "../identity/index.ts";
import { getCreditScore } from "../kyc/index.ts";
import { createFixedPriceProvider } from "../markets/index.ts";
import { setPolicy } from "../policy/index.ts";
import {
  accrueLoan,
  applyForLoan,
  approveLoan,
  confirmWireRepayment,
  getLoanLimit,
  getUserLoan,
  listUserLoans,
  loans,
  quoteLoan,
  reapplyLoan,
  rejectLoan,
  rejectWireRepayment,
  repayFromBalance,
  submitWireRepayment,
  updateLoanProduct,
  withdrawLoan,
} from "./index.ts";
import {
  borrower,
  expectReconciled,
  grant,
  openLoansDb,
  PRODUCT,
  photo,
  product,
  proofs,
  refusal,
  systemBalance,
  usdt,
} from "./test/helpers.ts";

/** The loans module against a real database; every instant is an argument (a test clock), no sleeps. */
let db: Db;
let dir: string;
let close: () => Promise<void>;
const prices = createFixedPriceProvider();
const op = { operatorId: 1, actor: "operator:1" };
const at = (iso: string) => new Date(iso);
const T0 = "2026-04-01T09:00:00Z";

beforeAll(async () => {
  const opened = await openLoansDb();
  db = opened.db;
  dir = opened.uploadDir;
  close = opened.close;
});
afterAll(async () => {
  await close?.();
});

async function apply(user: User, productId: number, amount = "1000", cycle = 7, now = at(T0)) {
  return applyForLoan(
    db,
    prices,
    user,
    { product_id: productId, amount, cycle_days: cycle, agree: true, ...(await proofs(db, dir, user)) },
    now,
  );
}
async function loansOf(userId: number) {
  const [row] = await db.select({ n: count() }).from(loans).where(eq(loans.userId, userId));
  return row?.n ?? 0;
}

describe("quote", () => {
  it("shows interest, total, due day, grace and the late fee a day, to the cent", async () => {
    const p = await product(db, { daily_rate: "0.00123", overdue_rate: "0.00555" });
    const q = await quoteLoan(db, { product_id: p.id, amount: "1234.56", cycle_days: 14 }, at(T0));
    // 1234.56 × 0.00123 × 14 = 21.2591232 → 21.26; late fee 1234.56 × 0.00555 = 6.851808 → 6.85
    expect(q).toMatchObject({
      currency: "USDT",
      amount: "1234.56",
      interest: "21.26",
      total: "1255.82",
      dueDay: "2026-04-15",
      graceDays: 3,
      graceEndDay: "2026-04-18",
      lateFeePerDay: "6.85",
    });
  });

  it("refuses an amount out of range or a period the product does not offer", async () => {
    const p = await product(db);
    const q = (amount: string, cycle_days: number) => quoteLoan(db, { product_id: p.id, amount, cycle_days });
    expect((await refusal(q("99.99", 7))).code).toBe("LOAN_AMOUNT_BELOW_MINIMUM");
    expect((await refusal(q("5000.01", 7))).code).toBe("LOAN_AMOUNT_ABOVE_MAXIMUM");
    expect((await refusal(q("100", 8))).code).toBe("LOAN_CYCLE_INVALID");
    await updateLoanProduct(db, p.id, { ...PRODUCT, enabled: false }, "test");
    expect((await refusal(q("100", 7))).code).toBe("LOAN_PRODUCT_NOT_FOUND");
  });
});

describe("applying", () => {
  it("needs primary and then advanced KYC", async () => {
    const p = await product(db);
    const none = await borrower(db, dir, "0", "none");
    expect((await refusal(apply(none, p.id))).code).toBe("KYC_REQUIRED");
    const primary = await borrower(db, dir, "0", "primary");
    const error = await refusal(apply(primary, p.id));
    expect(error.code).toBe("ADVANCED_KYC_REQUIRED");
    expect(translate("zh", `errors.${error.code}`)).not.toContain("errors.");
    expect(await loansOf(primary.id)).toBe(0);
  });

  it("needs the agreement ticked and every proof, the user's own", async () => {
    const p = await product(db);
    const user = await borrower(db, dir);
    const other = await borrower(db, dir);
    const all = await proofs(db, dir, user);
    const base = { product_id: p.id, amount: "500", cycle_days: 7 };
    const ticked = { ...base, agree: true };
    expect((await refusal(applyForLoan(db, prices, user, { ...base, agree: false, ...all }))).code).toBe(
      "AGREEMENT_REQUIRED",
    );
    const { income_upload_id: _, ...missing } = all;
    const noIncome = await refusal(applyForLoan(db, prices, user, { ...ticked, ...missing }));
    expect([noIncome.code, noIncome.field]).toEqual(["PROOF_REQUIRED", "income_upload_id"]);
    const foreign = await refusal(
      applyForLoan(db, prices, user, { ...ticked, ...all, bank_upload_id: await photo(db, dir, other) }),
    );
    expect([foreign.code, foreign.field]).toEqual(["PROOF_REQUIRED", "bank_upload_id"]);
    expect(await loansOf(user.id)).toBe(0);
    const loan = await applyForLoan(db, prices, user, { ...ticked, ...all }, at(T0));
    expect(loan).toMatchObject({ status: "unreviewed", amount: "500.00", interest: "3.50", total: "503.50" });
    expect(loan.contractNo).toMatch(/^LN\d{8}$/);
    expect(Object.keys(loan.proofs).sort()).toEqual(["bank", "credit", "housing", "id_photo", "income"]);
  });

  it("limits by credit score: exactly the limit is allowed, one cent more is over limit", async () => {
    const p = await product(db, { max_amount: "100000" });
    const user = await borrower(db, dir);
    const limit = await getLoanLimit(db, prices, user.id);
    // base 300 + primary 150 + advanced 150 = 600 → 5000 USDT by the default table.
    expect(limit).toMatchObject({ score: 600, limitUsdt: "5000", usedUsdt: "0", availableUsdt: "5000" });
    await apply(user, p.id, "3000");
    const over = await refusal(apply(user, p.id, "2000.01"));
    expect(over.code).toBe("LOAN_LIMIT_EXCEEDED");
    expect(translate("en", "errors.LOAN_LIMIT_EXCEEDED")).toMatch(/loan limit/i);
    await apply(user, p.id, "2000");
    expect((await getLoanLimit(db, prices, user.id)).availableUsdt).toBe("0");
    expect(await loansOf(user.id)).toBe(2);
  });

  it("follows the operator's limit table", async () => {
    const p = await product(db, { max_amount: "100000" });
    const user = await borrower(db, dir);
    const table = [
      { minScore: 0, limitUsdt: "0" },
      { minScore: 600, limitUsdt: "250" },
    ];
    await setPolicy(db, "kyc.credit.loanLimits", table, "test");
    try {
      expect((await refusal(apply(user, p.id, "250.01"))).code).toBe("LOAN_LIMIT_EXCEEDED");
      await apply(user, p.id, "250");
      await setPolicy(db, "kyc.credit.loanLimits", [{ minScore: 601, limitUsdt: "100000" }], "test");
      expect((await refusal(apply(await borrower(db, dir), p.id, "100"))).code).toBe("LOAN_LIMIT_EXCEEDED");
    } finally {
      await setPolicy(
        db,
        "kyc.credit.loanLimits",
        [
          { minScore: 0, limitUsdt: "0" },
          { minScore: 450, limitUsdt: "1000" },
          { minScore: 600, limitUsdt: "5000" },
          { minScore: 750, limitUsdt: "20000" },
          { minScore: 900, limitUsdt: "50000" },
        ],
        "test",
      );
    }
  });

  it("two applications at once cannot both fit in the same limit", async () => {
    const p = await product(db);
    const user = await borrower(db, dir);
    const input = { product_id: p.id, amount: "3000", cycle_days: 7, agree: true };
    const both = await Promise.allSettled([
      applyForLoan(db, prices, user, { ...input, ...(await proofs(db, dir, user)) }),
      applyForLoan(db, prices, user, { ...input, ...(await proofs(db, dir, user)) }),
    ]);
    expect(both.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(await loansOf(user.id)).toBe(1);
  });
});

/**
 * The state-machine tests share one borrower (with a limit raised for them), one product and one set
 * of proofs: each test still gets a loan of its own, made through the services.
 */
const matrix: { user?: User; productId: number; docs: Record<string, string> } = { productId: 0, docs: {} };

/** A loan in each state, made through the services. */
async function loanIn(state: LoanStatus) {
  const user = matrix.user as User;
  const loan = await applyForLoan(
    db,
    prices,
    user,
    { product_id: matrix.productId, amount: "1000", cycle_days: 7, agree: true, ...matrix.docs },
    at(T0),
  );
  const id = loan.id;
  if (state === "rejected") {
    await rejectLoan(db, { loanId: id, reason: "Income proof unreadable", ...op });
  } else if (state === "withdrawn") {
    await withdrawLoan(db, user, id);
  } else if (state !== "unreviewed") {
    await approveLoan(db, { loanId: id, ...op }, at(T0));
    if (state === "repaying") {
      await repayFromBalance(db, user, { loan_id: id, amount: "10" }, at(T0));
    } else if (state === "cleared") {
      await repayFromBalance(db, user, { loan_id: id, amount: "1007" }, at(T0));
    } else if (state === "overdue") {
      await accrueLoan(db, id, at("2026-04-12T00:00:00Z"));
    }
  }
  const [row] = await db.select().from(loans).where(eq(loans.id, id));
  expect(row?.status).toBe(state);
  return { user, id };
}

type Action = "withdraw" | "reapply" | "approve" | "reject" | "repay";
const ACTIONS: Record<Action, (user: User, id: number) => Promise<unknown>> = {
  withdraw: (user, id) => withdrawLoan(db, user, id),
  reapply: (user, id) => reapplyLoan(db, prices, user, { loan_id: id, agree: true }),
  approve: (_user, id) => approveLoan(db, { loanId: id, ...op }, at(T0)),
  reject: (_user, id) => rejectLoan(db, { loanId: id, reason: "No", ...op }),
  repay: (user, id) => repayFromBalance(db, user, { loan_id: id, amount: "1" }, at(T0)),
};
/** Which action each state allows, and where it leads. */
const ALLOWED: Record<LoanStatus, Partial<Record<Action, LoanStatus>>> = {
  unreviewed: { withdraw: "withdrawn", approve: "disbursed", reject: "rejected" },
  rejected: { reapply: "unreviewed" },
  withdrawn: { reapply: "unreviewed" },
  disbursed: { repay: "repaying" },
  repaying: { repay: "repaying" },
  overdue: { repay: "overdue" },
  cleared: {},
};

describe("state machine", () => {
  beforeAll(async () => {
    matrix.user = await borrower(db, dir, "100000");
    matrix.productId = (await product(db)).id;
    matrix.docs = await proofs(db, dir, matrix.user);
    await setPolicy(db, "kyc.credit.loanLimits", [{ minScore: 0, limitUsdt: "10000000" }], "test");
  });
  afterAll(async () => {
    await setPolicy(db, "kyc.credit.loanLimits", POLICY["kyc.credit.loanLimits"].default, "test");
  });

  it("the transition table holds exactly the documented transitions", () => {
    const actors = ["user", "operator", "system"] as const;
    const allowed: string[] = [];
    for (const from of loanMachine.states) {
      for (const to of loanMachine.states) {
        for (const by of actors) {
          if (findTransition(loanMachine, from, to, by)) {
            allowed.push(`${from}>${to}:${by}`);
          }
        }
      }
    }
    expect(allowed.sort()).toEqual(
      [
        "unreviewed>disbursed:operator",
        "unreviewed>rejected:operator",
        "unreviewed>withdrawn:user",
        "rejected>unreviewed:user",
        "withdrawn>unreviewed:user",
        "disbursed>repaying:user",
        "disbursed>repaying:operator",
        "disbursed>cleared:user",
        "disbursed>cleared:operator",
        "repaying>cleared:user",
        "repaying>cleared:operator",
        "overdue>cleared:user",
        "overdue>cleared:operator",
        "disbursed>overdue:system",
        "repaying>overdue:system",
      ].sort(),
    );
  });

  for (const state of loanMachine.states) {
    for (const action of Object.keys(ACTIONS) as Action[]) {
      const to = ALLOWED[state][action];
      it(`${state}: ${action} ${to ? `→ ${to}` : "is refused and changes nothing"}`, async () => {
        const { user, id } = await loanIn(state);
        const [before] = await db.select().from(loans).where(eq(loans.id, id));
        const balance = await usdt(db, user.id);
        if (to) {
          await ACTIONS[action](user, id);
          const [after] = await db.select().from(loans).where(eq(loans.id, id));
          expect(after?.status).toBe(to);
        } else {
          const error = await refusal(ACTIONS[action](user, id));
          expect(["LOAN_NOT_ALLOWED", "ALREADY_REVIEWED", "LOAN_NOTHING_OWED"]).toContain(error.code);
          const [after] = await db.select().from(loans).where(eq(loans.id, id));
          expect(after).toEqual(before);
          expect(await usdt(db, user.id)).toBe(balance);
        }
      });
    }
  }
});

describe("disbursement and repayment", () => {
  it("credits the principal from the loans pool once, even when approved 10 times at once", async () => {
    const p = await product(db);
    const user = await borrower(db, dir);
    const loan = await apply(user, p.id, "1500", 14);
    const pool = await systemBalance(db, "loans_pool");
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, () => approveLoan(db, { loanId: loan.id, ...op }, at(T0))),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(await usdt(db, user.id)).toBe("1500");
    expect(new MoneyDecimal(await systemBalance(db, "loans_pool")).minus(pool).toFixed()).toBe("-1500");
    const view = await getUserLoan(db, user.id, loan.id);
    expect(view).toMatchObject({ status: "disbursed", startDay: "2026-04-01", dueDay: "2026-04-15" });
    expect(view.owed).toEqual({
      principal: "1500.00",
      interest: "21.00",
      lateFees: "0.00",
      total: "1521.00",
    });
    await expectReconciled(db);
  });

  it("a rejection carries its reason and the user may reapply the same loan", async () => {
    const p = await product(db);
    const user = await borrower(db, dir);
    const loan = await apply(user, p.id, "300");
    await rejectLoan(db, { loanId: loan.id, reason: "Bank statement too old", ...op });
    expect((await getUserLoan(db, user.id, loan.id)).rejectReason).toBe("Bank statement too old");
    const again = await reapplyLoan(db, prices, user, { loan_id: loan.id, agree: true });
    expect(again).toMatchObject({ id: loan.id, status: "unreviewed", rejectReason: null });
    expect((await refusal(reapplyLoan(db, prices, user, { loan_id: loan.id, agree: false }))).code).toBe(
      "AGREEMENT_REQUIRED",
    );
  });

  it("partial then full repayment: fees, interest, principal in that order; cleared when all is paid", async () => {
    const p = await product(db);
    const user = await borrower(db, dir);
    const loan = await apply(user, p.id, "1000", 7);
    await approveLoan(db, { loanId: loan.id, ...op }, at(T0));
    const interestAccount = await systemBalance(db, "loan_interest");
    const first = await repayFromBalance(db, user, { loan_id: loan.id, amount: "10.5" }, at(T0));
    expect(first.split).toEqual({ lateFees: "0.00", interest: "7.00", principal: "3.50" });
    expect(first.loan.status).toBe("repaying");
    const over = await refusal(repayFromBalance(db, user, { loan_id: loan.id, amount: "996.51" }, at(T0)));
    expect([over.code, over.params]).toEqual(["LOAN_REPAY_EXCEEDS", { owed: "996.50" }]);
    // 1000 disbursed − 10.5 repaid = 989.5 left: not enough, and nothing changes.
    const poor = await refusal(repayFromBalance(db, user, { loan_id: loan.id, amount: "996.50" }, at(T0)));
    expect(poor.code).toBe("INSUFFICIENT_BALANCE");
    expect((await getUserLoan(db, user.id, loan.id)).owed.total).toBe("996.50");
    await grant(db, user.id, "100", "top-up");
    const cleared = await repayFromBalance(db, user, { loan_id: loan.id, amount: "996.5" }, at(T0));
    expect(cleared.loan).toMatchObject({ status: "cleared", paid: "1007.00" });
    expect(await usdt(db, user.id)).toBe("93");
    expect(new MoneyDecimal(await systemBalance(db, "loan_interest")).minus(interestAccount).toFixed()).toBe(
      "7",
    );
    expect((await refusal(repayFromBalance(db, user, { loan_id: loan.id, amount: "1" }))).code).toBe(
      "LOAN_NOTHING_OWED",
    );
    await expectReconciled(db);
  });

  it("the same full repayment sent 20 times at once applies once", async () => {
    const p = await product(db);
    const user = await borrower(db, dir, "5000");
    const loan = await apply(user, p.id, "1000", 7);
    await approveLoan(db, { loanId: loan.id, ...op }, at(T0));
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, () =>
        repayFromBalance(db, user, { loan_id: loan.id, amount: "1007" }, at(T0)),
      ),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(await usdt(db, user.id)).toBe("4993");
    await expectReconciled(db);
  });

  it("a partial repayment retried under one idempotency key applies once", async () => {
    const p = await product(db);
    const user = await borrower(db, dir, "5000");
    const loan = await apply(user, p.id, "1000", 7);
    await approveLoan(db, { loanId: loan.id, ...op }, at(T0));
    const input = { loan_id: loan.id, amount: "100" };
    const send = () =>
      runOnce(db, { userId: user.id, key: "repay-key-0001", action: "loans.repay", input }, (once) =>
        repayFromBalance(db, user, input, at(T0), once),
      );
    const first = await send();
    const again = await send();
    expect(again).toMatchObject({ repaymentId: first.repaymentId });
    expect(await usdt(db, user.id)).toBe("5900");
  });

  it("another user's loan is unreachable", async () => {
    const p = await product(db);
    const owner = await borrower(db, dir, "5000");
    const thief = await borrower(db, dir, "5000");
    const loan = await apply(owner, p.id, "1000", 7);
    const expectMissing = async (promise: Promise<unknown>) =>
      expect((await refusal(promise)).code).toBe("LOAN_NOT_FOUND");
    await expectMissing(withdrawLoan(db, thief, loan.id));
    await expectMissing(getUserLoan(db, thief.id, loan.id));
    await approveLoan(db, { loanId: loan.id, ...op }, at(T0));
    await expectMissing(repayFromBalance(db, thief, { loan_id: loan.id, amount: "10" }));
    await expectMissing(
      submitWireRepayment(db, thief, {
        loan_id: loan.id,
        amount: "10",
        upload_id: await photo(db, dir, thief),
      }),
    );
    expect((await listUserLoans(db, thief.id, 1, 20)).items).toEqual([]);
    expect(await usdt(db, thief.id)).toBe("5000");
  });

  it("a wire repayment with its proof is applied when an operator confirms it, once", async () => {
    const p = await product(db);
    const user = await borrower(db, dir);
    const loan = await apply(user, p.id, "1000", 7);
    await approveLoan(db, { loanId: loan.id, ...op }, at(T0));
    const proof = await photo(db, dir, user);
    const other = await borrower(db, dir);
    const foreign = await refusal(
      submitWireRepayment(
        db,
        user,
        { loan_id: loan.id, amount: "10", upload_id: await photo(db, dir, other) },
        at(T0),
      ),
    );
    expect(foreign.code).toBe("PROOF_REQUIRED");
    const tooMuch = await refusal(
      submitWireRepayment(db, user, { loan_id: loan.id, amount: "1007.01", upload_id: proof }, at(T0)),
    );
    expect(tooMuch.code).toBe("LOAN_REPAY_EXCEEDS");
    const wire = await submitWireRepayment(
      db,
      user,
      { loan_id: loan.id, amount: "1007", upload_id: proof },
      at(T0),
    );
    expect(wire.status).toBe("pending");
    expect((await getUserLoan(db, user.id, loan.id)).status).toBe("disbursed");
    const confirms = await Promise.allSettled([
      confirmWireRepayment(db, { repaymentId: wire.id, ...op }, at(T0)),
      confirmWireRepayment(db, { repaymentId: wire.id, ...op }, at(T0)),
    ]);
    expect(confirms.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const after = await getUserLoan(db, user.id, loan.id);
    expect(after.status).toBe("cleared");
    expect(after.repayments[0]).toMatchObject({ method: "wire", status: "confirmed", uploadId: proof });
    // The user's balance never paid it: it came from the wire clearing account.
    expect(await usdt(db, user.id)).toBe("1000");
    await expectReconciled(db);
  });

  it("a wire repayment under one key is filed once, even when the process dies between filing it and answering", async () => {
    const p = await product(db);
    const user = await borrower(db, dir);
    const loan = await apply(user, p.id, "1000", 7);
    await approveLoan(db, { loanId: loan.id, ...op }, at(T0));
    const input = { loan_id: loan.id, amount: "50", upload_id: await photo(db, dir, user) };
    const request = { userId: user.id, key: "wire-key-0001", action: "loans.repay", input };
    // The repayment is filed and committed; the process dies before the edge answers.
    let filed: { id: number } | undefined;
    const crashed = runOnce(db, request, async (once) => {
      filed = await submitWireRepayment(db, user, input, at(T0), once);
      throw new Error("process died");
    });
    await expect(crashed).rejects.toThrow("process died");
    expect(filed?.id).toBeGreaterThan(0);
    // The client retries with the same key: the first filing's answer, and no second filing.
    const retried = await runOnce(db, request, (once) => submitWireRepayment(db, user, input, at(T0), once));
    expect(retried).toMatchObject({ id: filed?.id, status: "pending" });
    const wires = (await getUserLoan(db, user.id, loan.id)).repayments.filter((r) => r.method === "wire");
    expect(wires.map((r) => r.id)).toEqual([filed?.id]);
  });

  it("a rejected wire repayment changes nothing on the loan", async () => {
    const p = await product(db);
    const user = await borrower(db, dir);
    const loan = await apply(user, p.id, "1000", 7);
    await approveLoan(db, { loanId: loan.id, ...op }, at(T0));
    const upload_id = await photo(db, dir, user);
    const wire = await submitWireRepayment(db, user, { loan_id: loan.id, amount: "50", upload_id }, at(T0));
    await rejectWireRepayment(db, { repaymentId: wire.id, reason: "No such transfer", ...op }, at(T0));
    expect((await refusal(confirmWireRepayment(db, { repaymentId: wire.id, ...op }, at(T0)))).code).toBe(
      "ALREADY_REVIEWED",
    );
    const view = await getUserLoan(db, user.id, loan.id);
    expect(view).toMatchObject({ status: "disbursed", paid: "0.00" });
    expect(view.repayments[0]).toMatchObject({ status: "rejected", rejectReason: "No such transfer" });
  });
});

describe("overdue and the credit score", () => {
  it("late fees start after the grace days, and an overdue loan lowers the credit score", async () => {
    const p = await product(db);
    const user = await borrower(db, dir, "100");
    const loan = await apply(user, p.id, "1000", 7);
    await approveLoan(db, { loanId: loan.id, ...op }, at(T0));
    const before = await getCreditScore(db, user.id, at(T0));
    // Due 04-08, grace to 04-11: nothing on the 11th, the first fee on the 12th.
    expect((await accrueLoan(db, loan.id, at("2026-04-11T23:59:59Z"))).status).toBe("disbursed");
    const first = await accrueLoan(db, loan.id, at("2026-04-12T00:00:00Z"));
    expect([first.status, first.overdueDays, new MoneyDecimal(first.lateFees).toFixed(2)]).toEqual([
      "overdue",
      1,
      "5.00",
    ]);
    const after = await getCreditScore(db, user.id, at("2026-04-12T00:00:00Z"));
    expect(after.score).toBe(before.score - 50);
    expect(after.loanLimitUsdt).toBe("1000");
    // Repaying while overdue pays the fees first and keeps it overdue until cleared.
    const part = await repayFromBalance(
      db,
      user,
      { loan_id: loan.id, amount: "20" },
      at("2026-04-13T08:00:00Z"),
    );
    expect(part.split).toEqual({ lateFees: "10.00", interest: "7.00", principal: "3.00" });
    expect(part.loan.status).toBe("overdue");
  });
});
