import { translate } from "@northstar/shared/i18n";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runAdminCli } from "../test/cli.ts";
import { query } from "../test/fixtures.ts";
import { createHarness, type Harness } from "../test/harness.ts";
import { balanceOf, grant, operatorToken, userIdOf } from "../test/money.ts";

/**
 * Managed earning through the API: the back office creates a product, users buy it through tRPC
 * (Idempotency-Key) and the legacy calls (rtoken), list and redeem their orders; another user's
 * order ids reach nothing.
 */
let h: Harness;
let op: string;
let productId: number;
beforeAll(async () => {
  h = await createHarness();
  op = await operatorToken(h, "admin");
  const res = await inject(
    "adminEarn.createProduct",
    {
      family: "ai",
      name: "AI 7 days",
      currency: "USDT",
      cycle_days: 7,
      rate_min: "0.004",
      rate_max: "0.004",
      min_amount: "100",
      max_amount: "5000",
      user_limit: "10000",
      user_count: 3,
      capacity: "100000",
      risk_level: "conservative",
      redemption_rule: "percent",
    },
    { "x-operator-token": op },
  );
  productId = resultOf<{ id: number }>(res).id;
});
afterAll(async () => {
  await h?.close();
});

/** The data of a tRPC answer (undefined on a refusal). */
const resultOf = <T>(r: { body: { result?: { data: unknown } } }): T => r.body.result?.data as T;

async function inject(path: string, input: unknown, headers: Record<string, string> = {}) {
  const response = await h.app.inject({
    method: "POST",
    url: `/trpc/${path}`,
    payload: JSON.stringify(input),
    headers: { ...headers, "content-type": "application/json" },
  });
  return {
    status: response.statusCode,
    body: response.json() as { result?: { data: unknown }; error?: { data: { errorCode: string } } },
  };
}

async function fundedUser(funds: string) {
  const u = await h.registerByEmail();
  const userId = await userIdOf(h, u.token);
  await grant(h, userId, funds);
  return { ...u, userId };
}

describe("earn through tRPC and the legacy calls", () => {
  it("lists the product publicly and refuses a product change by a user", async () => {
    const list = await h.trpc("earn.products", { family: "ai" }, undefined, "query");
    expect(resultOf<{ id: number }[]>(list).map((p) => p.id)).toContain(productId);
    const u = await fundedUser("100");
    const denied = await inject("adminEarn.createProduct", {}, { authorization: `Bearer ${u.token}` });
    expect(denied.status).toBeGreaterThanOrEqual(400);
  });

  it("applies one buy sent 20 times concurrently with the same Idempotency-Key once", async () => {
    const u = await fundedUser("1000");
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        inject(
          "earn.buy",
          { product_id: productId, amount: "400" },
          { authorization: `Bearer ${u.token}`, "idempotency-key": "earnbuy-concurrent-0001" },
        ),
      ),
    );
    const ok = results.filter((r) => r.status === 200);
    expect(ok.length).toBeGreaterThanOrEqual(1);
    for (const r of results.filter((x) => x.status !== 200)) {
      expect(r.body.error?.data.errorCode).toBe("REQUEST_IN_PROGRESS");
    }
    expect(new Set(ok.map((r) => resultOf<{ id: number }>(r).id)).size).toBe(1);
    const orders = await query(h, "select id from earn_orders where user_id = $1", [u.userId]);
    expect(orders).toHaveLength(1);
    expect((await balanceOf(h, u.userId)).available).toBe("600");
  });

  it("buyProfit, getProfitList, getProfitInfo, getProfitTotal and sellProfit; another user's id reaches nothing", async () => {
    const u = await fundedUser("1000");
    const other = await fundedUser("1000");
    const bad = await h.call("buyProfit", {
      token: u.token,
      id: String(productId),
      amount: "50",
      lang: "zh",
    });
    expect(bad).toMatchObject({ code: 1, event: "buyProfit", data: { error: "EARN_BELOW_MINIMUM" } });
    expect(bad.message).toBe(translate("zh", "errors.EARN_BELOW_MINIMUM", { min: "100" }));
    const fields = { token: u.token, id: String(productId), amount: "500", rtoken: "rtk-earn-01" };
    const first = await h.call("buyProfit", fields);
    const again = await h.call("buyProfit", fields);
    expect(first).toMatchObject({ code: 0, event: "buyProfit", data: { amount: "500", status: "holding" } });
    expect(again.data).toEqual(first.data);
    expect((await balanceOf(h, u.userId)).available).toBe("500");
    const orderId = String((first.data as { id: number }).id);

    const list = await h.call("getProfitList", { token: u.token, type: "order" }, "GET");
    expect((list.data as { list: { id: number }[] }).list.map((o) => o.id)).toEqual([Number(orderId)]);
    const total = await h.call("getProfitTotal", { token: u.token }, "GET");
    expect(total.data).toMatchObject({ principal: "500", orders: 1 });
    const info = await h.call("getProfitInfo", { token: u.token, id: orderId }, "GET");
    expect(info.data).toMatchObject({ redemption_penalty: "25", redemption_returned: "475", cycle_days: 7 });

    for (const name of ["getProfitInfo", "sellProfit"]) {
      const stolen = await h.call(name, { token: other.token, id: orderId });
      expect(stolen).toMatchObject({ code: 1, data: { error: "EARN_ORDER_NOT_FOUND" } });
    }
    const otherList = await h.call("getProfitList", { token: other.token, type: "order" }, "GET");
    expect((otherList.data as { list: unknown[] }).list).toEqual([]);
    expect((await balanceOf(h, other.userId)).available).toBe("1000");

    const sold = await h.call("sellProfit", { token: u.token, id: orderId });
    expect(sold).toMatchObject({ code: 0, data: { status: "redeemed" } });
    expect((await balanceOf(h, u.userId)).available).toBe("975");
    const twice = await h.call("sellProfit", { token: u.token, id: orderId });
    expect(twice).toMatchObject({ code: 1, data: { error: "EARN_NOT_REDEEMABLE" } });
    expect((await balanceOf(h, u.userId)).available).toBe("975");
  });

  // Four operator commands, each a process start: on a loaded machine (CI runs the browser tests
  // beside this lane) each takes seconds, as in cli/admin.int.test.ts.
  it("pnpm admin earn:… creates a range product, publishes a future day's rate once, lists them", {
    timeout: 120_000,
  }, async () => {
    const spec = {
      family: "etf",
      name: "ETF 30",
      currency: "USDT",
      cycle_days: 30,
      rate_min: "0.003",
      rate_max: "0.005",
      min_amount: "100",
      max_amount: "5000",
      user_limit: "10000",
      user_count: 3,
      capacity: "100000",
      risk_level: "aggressive",
      redemption_rule: "remaining_days",
    };
    const created = await runAdminCli(h, "earn:product:create", JSON.stringify(spec));
    expect(created.code, created.stderr).toBe(0);
    const id = String((JSON.parse(created.stdout) as { id: number }).id);
    const day = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
    const published = await runAdminCli(h, "earn:rate:publish", id, day, "0.0042");
    expect(published.code, published.stderr).toBe(0);
    const twice = await runAdminCli(h, "earn:rate:publish", id, day, "0.0049");
    expect(twice.code).toBe(1);
    expect(twice.stderr).toContain("EARN_RATE_PUBLISHED");
    const rates = await runAdminCli(h, "earn:rates", id);
    expect(JSON.parse(rates.stdout)).toEqual([{ day, rate: "0.0042" }]);
  });
});
