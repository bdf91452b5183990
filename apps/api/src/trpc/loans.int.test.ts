import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { photo, proofs, verifyById } from "../../../../packages/domain/src/loans/test/helpers.ts";
import { runAdminCli } from "../test/cli.ts";
import { query } from "../test/fixtures.ts";
import { createHarness, type Harness } from "../test/harness.ts";
import { balanceOf, dataOf, operatorToken, userIdOf } from "../test/money.ts";

/**
 * Loans through the API: the back office creates a product and disburses; the user applies through
 * tRPC, reads the legacy calls (lendList, lendMy, lendMylist, lend_img) and repays with lendBack
 * (once per rtoken); another user's loan id reaches nothing.
 */
let h: Harness;
let op: string;
let productId: number;
beforeAll(async () => {
  h = await createHarness();
  op = await operatorToken(h, "admin");
  const res = await h.app.inject({
    method: "POST",
    url: "/trpc/adminLoans.createProduct",
    payload: JSON.stringify({
      name: "Quick loan",
      currency: "USDT",
      cycle_days: [7, 14],
      daily_rate: "0.001",
      overdue_rate: "0.005",
      min_amount: "100",
      max_amount: "3000",
      enabled: true,
    }),
    headers: { "content-type": "application/json", "x-operator-token": op },
  });
  productId = (res.json() as { result: { data: { id: number } } }).result.data.id;
});
afterAll(async () => {
  await h?.close();
});

async function verifiedUser() {
  const u = await h.registerByEmail();
  const userId = await userIdOf(h, u.token);
  const user = await verifyById(h.db, h.deps.config.uploadDir, userId);
  return { ...u, user, userId };
}

describe("loans through tRPC and the legacy calls", () => {
  it("lists products, quotes, applies, is disbursed by an operator and repaid once per rtoken", async () => {
    const list = await h.call("lendList", {}, "GET");
    expect(list.code).toBe(0);
    expect(list.data).toMatchObject({ grace_days: 3 });
    const unverified = await h.registerByEmail();
    const gated = await h.call("lendMy", { token: unverified.token }, "GET");
    expect(gated.data).toMatchObject({ allowed: false, next: "primary" });

    const u = await verifiedUser();
    const my = await h.call("lendMy", { token: u.token }, "GET");
    expect(my.data).toMatchObject({ allowed: true, limit_usdt: "5000", available_usdt: "5000" });
    const quote = dataOf<{ interest: string; total: string }>(
      await h.trpc("loans.quote", { product_id: productId, amount: "1000", cycle_days: 7 }, u.token, "query"),
    );
    expect(quote).toMatchObject({ interest: "7.00", total: "1007.00" });
    const docs = await proofs(h.db, h.deps.config.uploadDir, u.user);
    const refused = await h.trpc(
      "loans.create",
      { product_id: productId, amount: "1000", cycle_days: 7, agree: false, ...docs },
      u.token,
    );
    expect(refused.body.error?.data.errorCode).toBe("AGREEMENT_REQUIRED");
    const loan = dataOf<{ id: number; status: string }>(
      await h.trpc(
        "loans.create",
        { product_id: productId, amount: "1000", cycle_days: 7, agree: true, ...docs },
        u.token,
      ),
    );
    expect(loan.status).toBe("unreviewed");

    const byUser = await h.trpc("adminLoans.approve", { loan_id: loan.id }, u.token);
    expect(byUser.status).toBeGreaterThanOrEqual(400);
    const approved = await h.app.inject({
      method: "POST",
      url: "/trpc/adminLoans.approve",
      payload: JSON.stringify({ loan_id: loan.id }),
      headers: { "content-type": "application/json", "x-operator-token": op },
    });
    expect(approved.statusCode).toBe(200);
    expect((await balanceOf(h, u.userId)).available).toBe("1000");

    const form = { token: u.token, loan_id: String(loan.id), amount: "500", rtoken: "repay-0001" };
    const first = await h.call("lendBack", form);
    const again = await h.call("lendBack", form);
    expect(first.code).toBe(0);
    expect(again.data).toEqual(first.data);
    expect((await balanceOf(h, u.userId)).available).toBe("500");
    const mine = await h.call("lendMylist", { token: u.token }, "GET");
    expect((mine.data as { list: { id: number; status: string; owed: string }[] }).list[0]).toMatchObject({
      id: loan.id,
      status: "repaying",
      owed: "507.00",
    });
    const images = await h.call("lend_img", { token: u.token, loan_id: String(loan.id) }, "GET");
    expect((images.data as { proofs: unknown[] }).proofs).toHaveLength(5);

    const other = await verifiedUser();
    const stolen = await h.call("lendBack", { token: other.token, loan_id: String(loan.id), amount: "1" });
    expect([stolen.code, (stolen.data as { error: string }).error]).toEqual([1, "LOAN_NOT_FOUND"]);
    const peek = await h.call("lend_img", { token: other.token, loan_id: String(loan.id) }, "GET");
    expect(peek.code).toBe(1);
    const wireForm = {
      token: u.token,
      loan_id: String(loan.id),
      amount: "507",
      upload_id: await photo(h.db, h.deps.config.uploadDir, u.user),
      rtoken: "wire-0001",
    };
    const wire = await h.call("lendBack", wireForm);
    expect(wire.data).toMatchObject({ method: "wire", status: "pending", amount: "507" });
    // The same rtoken again (a retry after a lost answer) answers the first filing and files nothing.
    const wireAgain = await h.call("lendBack", wireForm);
    expect(wireAgain.data).toEqual(wire.data);
    expect(
      await query(h, "select id from loan_repayments where loan_id = $1 and method = 'wire' order by id", [
        loan.id,
      ]),
    ).toEqual([{ id: (wire.data as { repayment_id: number }).repayment_id }]);
    // Bad input: a clear translated refusal naming the field, and nothing changes.
    const cents = await h.call("lendBack", {
      token: u.token,
      loan_id: String(loan.id),
      amount: "1.005",
      lang: "zh",
    });
    expect([cents.code, cents.data]).toEqual([1, { error: "AMOUNT_TOO_PRECISE", field: "amount" }]);
    // The refusal names the field and the two decimals a loan amount allows, in the request's language.
    expect(cents.message).toBe("金额最多保留2位小数");
    const garbage = await h.call("lendBack", { token: u.token, loan_id: "abc", amount: "1" });
    expect(garbage.code).toBe(1);
    const cycle = await h.trpc(
      "loans.create",
      { product_id: productId, amount: "100", cycle_days: 8, agree: true, ...docs },
      u.token,
    );
    expect(cycle.body.error?.data.errorCode).toBe("LOAN_CYCLE_INVALID");
    expect((await balanceOf(h, u.userId)).available).toBe("500");
    const noSession = await h.call("lendMylist", {}, "GET");
    expect(noSession.code).toBe(2000);
  });

  it("pnpm admin loans:queue lists the application and loans:approve disburses it", {
    timeout: 120_000,
  }, async () => {
    const u = await verifiedUser();
    const docs = await proofs(h.db, h.deps.config.uploadDir, u.user);
    const loan = dataOf<{ id: number; contractNo: string }>(
      await h.trpc(
        "loans.create",
        { product_id: productId, amount: "200", cycle_days: 14, agree: true, ...docs },
        u.token,
      ),
    );
    const queue = await runAdminCli(h, "loans:queue");
    expect(queue.code, queue.stderr).toBe(0);
    expect(queue.stdout).toContain(loan.contractNo);
    const approved = await runAdminCli(h, "loans:approve", String(loan.id));
    expect(approved.code, approved.stderr).toBe(0);
    expect(JSON.parse(approved.stdout)).toMatchObject({ id: loan.id, status: "disbursed", amount: "200.00" });
    expect((await balanceOf(h, u.userId)).available).toBe("200");
  });
});
