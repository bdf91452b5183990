import type { TEarnProductInput } from "@northstar/shared/contracts/earn";
import { translate } from "@northstar/shared/i18n";
import { MoneyDecimal } from "@northstar/shared/money";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type Db } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { runOnce } from "../idempotency/index.ts";
import type { User } from "../identity/index.ts";
import { submitQuestionnaire } from "../kyc/index.ts";
import { findDustBalances, getUserBalances, reconcileLedger } from "../ledger/index.ts";
import { createFixedPriceProvider } from "../markets/index.ts";
import { setPolicy } from "../policy/index.ts";
import { seedDatabase } from "../setup/index.ts";
import { createTrader } from "../spot/testing.ts";
import { createTestDatabase } from "../test-support/index.ts";
import { earnOrders, earnProducts } from "./earn.table.ts";
import {
  approveRedemption,
  buyProduct,
  createProduct,
  estimateProductEarnings,
  getUserOrder,
  publishRate,
  rejectRedemption,
  requestRedemption,
  runDailyYield,
  settleOrder,
} from "./index.ts";

/** The earn module against a real database; every instant is an argument (a test clock), no sleeps. */
let db: Db;
let teardown: () => Promise<void>;
const prices = createFixedPriceProvider();
beforeAll(async () => {
  const database = await createTestDatabase();
  const conn = createDb(database.url, { max: 25 });
  conn.pool.on("error", () => {});
  db = conn.db;
  await seedDatabase(db);
  // The buyers here have not taken the risk questionnaire; these tests are about custody, so the
  // per-order cap of an unassessed user is raised. The cap itself is tested below.
  await setPolicy(db, "kyc.risk.maxPerOrderUsdt", { ...RISK_CAPS, notAssessed: "1000000" }, "test");
  // Likewise the riskiest product such a buyer may take; the rule is tested below.
  await setPolicy(db, "kyc.risk.unassessedMayBuy", "aggressive", "test");
  teardown = async () => {
    await conn.close();
    await database.drop();
  };
});
afterAll(async () => {
  await teardown?.();
});

const RISK_CAPS = { notAssessed: "1000", conservative: "10000", balanced: "100000", aggressive: "1000000" };
const at = (iso: string) => new Date(iso);
const D0 = "2026-03-01T10:00:00Z";

/** A user with `funds` USDT in the exchange wallet. */
const fundedUser = (funds: string): Promise<User> => createTrader(db, { USDT: funds });

const base: TEarnProductInput = {
  family: "ai",
  name: "AI 7",
  currency: "USDT",
  cycle_days: 7,
  rate_min: "0.004",
  rate_max: "0.004",
  min_amount: "100",
  max_amount: "10000",
  user_limit: "20000",
  user_count: 5,
  capacity: "1000000",
  risk_level: "balanced",
  redemption_rule: "percent",
};
const product = async (over: Partial<TEarnProductInput> = {}) =>
  createProduct(db, { ...base, ...over }, "test");

async function available(userId: number): Promise<string> {
  const row = (await getUserBalances(db, userId, "real")).find(
    (b) => b.wallet === "exchange" && b.currency === "USDT",
  );
  return new MoneyDecimal(row?.available ?? 0).toFixed();
}
async function system(code: string): Promise<string> {
  const r = await db.execute<{ balance: string }>(
    sql`select coalesce(sum(balance), 0)::text as balance from ledger_accounts where system_code = ${code} and currency = 'USDT'`,
  );
  return new MoneyDecimal(r.rows[0]?.balance ?? 0).toFixed();
}
async function order(id: number) {
  const [o] = await db.select().from(earnOrders).where(eq(earnOrders.id, id));
  if (!o) {
    throw new Error("no order");
  }
  return o;
}
async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}
async function expectReconciled() {
  const report = await reconcileLedger(db);
  expect(report.mismatchedAccounts).toEqual([]);
  expect(report.unbalancedCurrencies).toEqual([]);
  expect(report.unbalancedEntries).toEqual([]);
}

describe("buying", () => {
  it("moves exactly the principal from the exchange wallet into custody", async () => {
    const p = await product();
    const user = await fundedUser("1000");
    const custody = await system("earn_custody");
    const bought = await buyProduct(db, prices, user, { product_id: p.id, amount: "250.5" }, at(D0));
    expect(bought.status).toBe("holding");
    expect(bought.amount).toBe("250.5");
    expect(await available(user.id)).toBe("749.5");
    expect(new MoneyDecimal(await system("earn_custody")).minus(custody).toFixed()).toBe("250.5");
    const [row] = await db.select().from(earnProducts).where(eq(earnProducts.id, p.id));
    expect(new MoneyDecimal(row?.sold ?? 0).toFixed()).toBe("250.5");
    await expectReconciled();
  });

  it("refuses an order above the user's risk level (the verification module's cap) and moves nothing", async () => {
    const p = await product({ min_amount: "100", max_amount: "5000" });
    const user = await fundedUser("5000");
    await setPolicy(db, "kyc.risk.maxPerOrderUsdt", RISK_CAPS, "test");
    try {
      const e = await refusal(buyProduct(db, prices, user, { product_id: p.id, amount: "1000.01" }, at(D0)));
      expect(e.code).toBe("RISK_LIMIT_EXCEEDED");
      expect(await available(user.id)).toBe("5000");
      expect(await db.select().from(earnOrders).where(eq(earnOrders.productId, p.id))).toHaveLength(0);
      // Exactly the cap is allowed.
      await buyProduct(db, prices, user, { product_id: p.id, amount: "1000" }, at(D0));
      expect(await available(user.id)).toBe("4000");
    } finally {
      await setPolicy(db, "kyc.risk.maxPerOrderUsdt", { ...RISK_CAPS, notAssessed: "1000000" }, "test");
    }
  });

  it("refuses a product riskier than the buyer's risk level, in the buyer's language, and moves nothing", async () => {
    const balanced = await product({ risk_level: "balanced" });
    const aggressive = await product({ risk_level: "aggressive" });
    const mild = await product({ risk_level: "conservative" });
    const user = await fundedUser("5000");
    await setPolicy(db, "kyc.risk.unassessedMayBuy", "conservative", "test");
    try {
      // Not assessed: up to the policy's level (conservative).
      const e = await refusal(
        buyProduct(db, prices, user, { product_id: balanced.id, amount: "100" }, at(D0)),
      );
      expect(e.code).toBe("RISK_LEVEL_TOO_LOW");
      expect(translate("ty", `errors.${e.code}`, e.params)).toMatch(/[\u0E00-\u0E7F]/);
      await buyProduct(db, prices, user, { product_id: mild.id, amount: "100" }, at(D0));
      // Balanced answers: balanced products, not aggressive ones.
      await submitQuestionnaire(db, user.id, {
        accountPurpose: 3,
        investmentPurpose: 3,
        amountRange: 3,
        monthlyTrades: 1,
        occupation: 1,
      });
      await buyProduct(db, prices, user, { product_id: balanced.id, amount: "100" }, at(D0));
      const again = await refusal(
        buyProduct(db, prices, user, { product_id: aggressive.id, amount: "100" }, at(D0)),
      );
      expect(again.code).toBe("RISK_LEVEL_TOO_LOW");
      expect(await available(user.id)).toBe("4800");
      expect(await db.select().from(earnOrders).where(eq(earnOrders.productId, aggressive.id))).toHaveLength(
        0,
      );
      // "none": every buyer answers the questionnaire first.
      await setPolicy(db, "kyc.risk.unassessedMayBuy", "none", "test");
      const fresh = await fundedUser("1000");
      expect(
        (await refusal(buyProduct(db, prices, fresh, { product_id: mild.id, amount: "100" }, at(D0)))).code,
      ).toBe("RISK_LEVEL_TOO_LOW");
      await expectReconciled();
    } finally {
      await setPolicy(db, "kyc.risk.unassessedMayBuy", "aggressive", "test");
    }
  });

  it("applies the same buy sent 20 times at once under one idempotency key once", async () => {
    const p = await product();
    const user = await fundedUser("1000");
    const input = { product_id: p.id, amount: "300" };
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, () =>
        runOnce(db, { userId: user.id, key: "earn-buy-key-1", action: "earn.buy", input }, (once) =>
          buyProduct(db, prices, user, input, at(D0), once),
        ),
      ),
    );
    const ok = results.filter((r) => r.status === "fulfilled");
    expect(ok.length).toBeGreaterThanOrEqual(1);
    for (const r of results) {
      if (r.status === "rejected") {
        expect((r.reason as AppError).code).toBe("REQUEST_IN_PROGRESS");
      }
    }
    const ids = new Set(ok.map((r) => (r as PromiseFulfilledResult<{ id: number }>).value.id));
    expect(ids.size).toBe(1);
    const mine = await db.select().from(earnOrders).where(eq(earnOrders.userId, user.id));
    expect(mine).toHaveLength(1);
    expect(await available(user.id)).toBe("700");
    await expectReconciled();
  });

  it("refuses limits, capacity and insufficient balance with translated texts and changes nothing", async () => {
    const p = await product({
      min_amount: "100",
      max_amount: "500",
      user_limit: "600",
      user_count: 2,
      capacity: "900",
    });
    const user = await fundedUser("5000");
    const other = await fundedUser("5000");
    const poor = await fundedUser("150");
    const buy = (u: User, amount: string) => buyProduct(db, prices, u, { product_id: p.id, amount }, at(D0));
    const cases: [() => Promise<unknown>, string, string][] = [
      [() => buy(user, "99.99"), "EARN_BELOW_MINIMUM", "The amount is below this product's minimum of 100"],
      [() => buy(user, "500.01"), "EARN_ABOVE_MAXIMUM", "The amount is above this product's maximum of 500"],
      [() => buy(poor, "200"), "INSUFFICIENT_BALANCE", translate("en", "errors.INSUFFICIENT_BALANCE")],
      [
        () => buyProduct(db, prices, user, { product_id: 999_999, amount: "200" }, at(D0)),
        "EARN_PRODUCT_NOT_FOUND",
        "This product is not on sale",
      ],
    ];
    for (const [promise, code, text] of cases) {
      const e = await refusal(promise());
      expect(e.code).toBe(code);
      expect(translate("en", `errors.${e.code}`, e.params)).toBe(text);
    }
    expect(translate("zh", "errors.EARN_BELOW_MINIMUM", { min: "100" })).toBe("金额低于该产品的最低限额 100");
    await buy(user, "400");
    const limit = await refusal(buy(user, "201"));
    expect(limit.code).toBe("EARN_USER_LIMIT");
    expect(translate("en", "errors.EARN_USER_LIMIT", limit.params)).toBe(
      "This would exceed your limit of 600 for this product",
    );
    await buy(user, "200");
    const countErr = await refusal(buy(user, "100"));
    expect(countErr.code).toBe("EARN_USER_COUNT");
    expect(translate("en", "errors.EARN_USER_COUNT", countErr.params)).toBe(
      "You may buy this product at most 2 times",
    );
    const cap = await refusal(buy(other, "400"));
    expect(cap.code).toBe("EARN_CAPACITY");
    expect(translate("en", "errors.EARN_CAPACITY", cap.params)).toBe(
      "Not enough of this product is left (remaining 300)",
    );
    // Nothing moved for the refused attempts.
    expect(await available(user.id)).toBe("4400");
    expect(await available(other.id)).toBe("5000");
    expect(await available(poor.id)).toBe("150");
    const [row] = await db.select().from(earnProducts).where(eq(earnProducts.id, p.id));
    expect(new MoneyDecimal(row?.sold ?? 0).toFixed()).toBe("600");
    expect(await db.select().from(earnOrders).where(eq(earnOrders.productId, p.id))).toHaveLength(2);
    await expectReconciled();
  });
});

describe("amounts in the currency's decimals", () => {
  it("refuses a principal finer than USDT's 6 decimals, naming the field and the decimals, and changes nothing", async () => {
    const p = await product();
    const user = await fundedUser("1000");
    const custody = await system("earn_custody");
    const fine = await refusal(
      buyProduct(db, prices, user, { product_id: p.id, amount: "100.0000001" }, at(D0)),
    );
    expect([fine.code, fine.params, fine.field]).toEqual(["AMOUNT_TOO_PRECISE", { decimals: 6 }, "amount"]);
    expect(translate("en", `errors.${fine.code}`, { ...fine.params, field: "Amount" })).toBe(
      "Amount can have at most 6 decimal places",
    );
    const estimate = await refusal(estimateProductEarnings(db, p.id, "100.0000001"));
    expect([estimate.code, estimate.field]).toEqual(["AMOUNT_TOO_PRECISE", "amount"]);
    expect(await available(user.id)).toBe("1000");
    expect(await system("earn_custody")).toBe(custody);
    expect(await db.select().from(earnOrders).where(eq(earnOrders.productId, p.id))).toHaveLength(0);
  });

  it("cuts each day's yield and the estimate to USDT's decimals and rounds a penalty up: no balance holds dust", async () => {
    const p = await product({ rate_min: "0.0013", rate_max: "0.0013", min_amount: "1", cycle_days: 7 });
    const user = await fundedUser("1000");
    // 100.123457 × 0.0013 = 0.1301604941 a day → 0.13016 paid, the rest stays with the yield account.
    expect(await estimateProductEarnings(db, p.id, "100.123457")).toEqual({
      low: "0.91112",
      high: "0.91112",
    });
    const o = await buyProduct(db, prices, user, { product_id: p.id, amount: "100.123457" }, at(D0));
    await runDailyYield(db, at("2026-03-03T00:05:00Z"));
    expect((await order(o.id)).paidDays).toBe(2);
    expect(await available(user.id)).toBe("900.136863");
    // Redeemed with 5 days left at 5%: 5.00617285 → the user pays 5.006173.
    const quote = (await getUserOrder(db, user.id, o.id, at("2026-03-03T01:00:00Z"))).quote;
    expect(quote).toMatchObject({ penalty: "5.006173", returned: "95.117284" });
    await requestRedemption(db, user, o.id, at("2026-03-03T01:00:00Z"));
    expect(await available(user.id)).toBe("995.254147");
    expect((await findDustBalances(db)).filter((d) => d.userId === user.id)).toEqual([]);
    await expectReconciled();
  });
});

describe("the daily yield", () => {
  it("pays each day once when the job is delivered twice, catches up after days down, returns the principal at maturity", async () => {
    const p = await product({ rate_min: "0.0035", rate_max: "0.0035" });
    const user = await fundedUser("2000");
    const o = await buyProduct(db, prices, user, { product_id: p.id, amount: "1234.56" }, at(D0));
    const daily = "4.32096"; // 1234.56 × 0.0035
    // Day 1 is due from the start of 2 March; the same instant twice pays it once.
    await runDailyYield(db, at("2026-03-02T00:05:00Z"));
    await runDailyYield(db, at("2026-03-02T00:05:00Z"));
    await settleOrder(db, o.id, at("2026-03-02T06:00:00Z"));
    expect((await order(o.id)).paidDays).toBe(1);
    expect(await available(user.id)).toBe(new MoneyDecimal("765.44").plus(daily).toFixed());
    // The worker is stopped until 6 March: days 2 to 5 are paid on its return, once.
    const run = await runDailyYield(db, at("2026-03-06T08:00:00Z"));
    expect(run.days).toBeGreaterThanOrEqual(4);
    await runDailyYield(db, at("2026-03-06T09:00:00Z"));
    const mid = await order(o.id);
    expect(mid.paidDays).toBe(5);
    expect(new MoneyDecimal(mid.profit).toFixed()).toBe(new MoneyDecimal(daily).times(5).toFixed());
    // Stopped past maturity (8 March): days 6 and 7, then the principal; nothing after.
    await Promise.all([
      runDailyYield(db, at("2026-03-20T00:00:00Z")),
      runDailyYield(db, at("2026-03-20T00:00:00Z")),
    ]);
    await runDailyYield(db, at("2026-04-20T00:00:00Z"));
    const done = await order(o.id);
    expect(done.status).toBe("completed");
    expect(done.paidDays).toBe(7);
    expect(new MoneyDecimal(done.profit).toFixed()).toBe(new MoneyDecimal(daily).times(7).toFixed());
    expect(await available(user.id)).toBe(
      new MoneyDecimal("2000").plus(new MoneyDecimal(daily).times(7)).toFixed(),
    );
    const entries = await db.execute<{ n: number }>(
      sql`select count(*)::int as n from journal_entries where reference_type = 'earn_order' and reference_id = ${String(o.id)}`,
    );
    expect(entries.rows[0]?.n).toBe(1 + 7 + 1); // buy, 7 days, maturity
    await expectReconciled();
  });

  it("pays many orders once a day over parallel lanes of small batches, two runs at once", async () => {
    const p = await product({ rate_min: "0.001", rate_max: "0.001", user_count: 5 });
    const ids: number[] = [];
    for (let u = 0; u < 8; u++) {
      const user = await fundedUser("1000");
      for (let k = 0; k < 5; k++) {
        ids.push((await buyProduct(db, prices, user, { product_id: p.id, amount: `${100 + k}` }, at(D0))).id);
      }
    }
    // Batches of 3 over 4 lanes: 40 orders in 14 batches, lanes claiming after one another.
    const [first, second] = await Promise.all([
      runDailyYield(db, at("2026-03-04T00:05:00Z"), 3, 4),
      runDailyYield(db, at("2026-03-04T00:05:00Z"), 3, 4),
    ]);
    expect((first?.days ?? 0) + (second?.days ?? 0)).toBeGreaterThanOrEqual(40 * 3);
    for (const id of ids) {
      const o = await order(id);
      expect(o.paidDays).toBe(3);
      expect(new MoneyDecimal(o.profit).toFixed()).toBe(new MoneyDecimal(o.amount).times("0.003").toFixed());
    }
    await Promise.all([
      runDailyYield(db, at("2026-03-09T00:05:00Z"), 3, 4),
      runDailyYield(db, at("2026-03-09T00:05:00Z"), 3, 2),
    ]);
    const entries = await db.execute<{ kind: string; n: number }>(sql`
      select kind, count(*)::int as n from journal_entries
      where reference_type = 'earn_order' and reference_id in (select jsonb_array_elements_text(${JSON.stringify(ids.map(String))}::jsonb))
      group by kind order by kind`);
    expect(entries.rows).toEqual([
      { kind: "earn.buy", n: 40 },
      { kind: "earn.mature", n: 40 },
      { kind: "earn.yield", n: 40 * 7 },
    ]);
    for (const id of ids) {
      expect((await order(id)).status).toBe("completed");
    }
    await expectReconciled();
  });

  it("pays a range product each day's published rate; a published rate is never changed", async () => {
    const p = await product({ rate_min: "0.003", rate_max: "0.005", cycle_days: 7 });
    const now = at("2026-02-27T12:00:00Z");
    const past = await refusal(
      publishRate(db, { productId: p.id, day: "2026-02-27", rate: "0.004", actor: "t" }, now),
    );
    expect(past.code).toBe("EARN_RATE_NOT_FUTURE");
    const out = await refusal(
      publishRate(db, { productId: p.id, day: "2026-03-02", rate: "0.006", actor: "t" }, now),
    );
    expect(out.code).toBe("EARN_RATE_OUT_OF_RANGE");
    const rates: Record<string, string> = {
      "2026-03-02": "0.003",
      "2026-03-03": "0.0045",
      "2026-03-04": "0.005",
    };
    for (const [day, rate] of Object.entries(rates)) {
      await publishRate(db, { productId: p.id, day, rate, actor: "t" }, now);
    }
    const again = await refusal(
      publishRate(db, { productId: p.id, day: "2026-03-03", rate: "0.004", actor: "t" }, now),
    );
    expect(again.code).toBe("EARN_RATE_PUBLISHED");
    const user = await fundedUser("10000");
    const o = await buyProduct(db, prices, user, { product_id: p.id, amount: "10000" }, at(D0));
    await runDailyYield(db, at("2026-03-04T00:00:00Z"));
    // 10000 × (0.003 + 0.0045 + 0.005) = 125
    expect(new MoneyDecimal((await order(o.id)).profit).toFixed()).toBe("125");
    // Day 4 has no published rate: the range's lower end.
    await runDailyYield(db, at("2026-03-05T00:00:00Z"));
    expect(new MoneyDecimal((await order(o.id)).profit).toFixed()).toBe("155");
    await expectReconciled();
  });
});

describe("early redemption", () => {
  it("percent rule: pays the principal minus 5% (policy), keeps the yield paid, penalty to fees", async () => {
    const p = await product();
    const user = await fundedUser("1000");
    const o = await buyProduct(db, prices, user, { product_id: p.id, amount: "1000" }, at(D0));
    const fees = await system("fees");
    const quote = (await getUserOrder(db, user.id, o.id, at("2026-03-04T01:00:00Z"))).quote;
    expect(quote).toMatchObject({ penalty: "50", returned: "950", remainingDays: 4 });
    const r = await requestRedemption(db, user, o.id, at("2026-03-04T01:00:00Z"));
    expect(r.status).toBe("redeemed");
    const done = await order(o.id);
    expect(done.paidDays).toBe(3);
    expect(new MoneyDecimal(done.penalty ?? 0).toFixed()).toBe("50");
    // 3 days × 4 yield + 950 back
    expect(await available(user.id)).toBe("962");
    expect(new MoneyDecimal(await system("fees")).minus(fees).toFixed()).toBe("50");
    // Nothing more after redemption.
    await runDailyYield(db, at("2026-04-01T00:00:00Z"));
    expect(await available(user.id)).toBe("962");
    await expectReconciled();
  });

  it("remaining-days rule: rate × remaining days × amount", async () => {
    const p = await product({
      redemption_rule: "remaining_days",
      cycle_days: 30,
      rate_min: "0.004",
      rate_max: "0.004",
    });
    const user = await fundedUser("10000");
    const o = await buyProduct(db, prices, user, { product_id: p.id, amount: "10000" }, at(D0));
    await requestRedemption(db, user, o.id, at("2026-03-11T00:00:00Z"));
    const done = await order(o.id);
    // 10 days paid (40 each), 20 days left: 10000 × 0.004 × 20 = 800
    expect(done.paidDays).toBe(10);
    expect(new MoneyDecimal(done.penalty ?? 0).toFixed()).toBe("800");
    expect(await available(user.id)).toBe(new MoneyDecimal(400).plus(9200).toFixed());
    await expectReconciled();
  });

  it("under review: rejected, re-applied, approved; another user's order id reaches nothing", async () => {
    await setPolicy(db, "earn.redemption.review", true, "test");
    try {
      const p = await product();
      const user = await fundedUser("1000");
      const intruder = await fundedUser("1000");
      const o = await buyProduct(db, prices, user, { product_id: p.id, amount: "1000" }, at(D0));
      for (const attempt of [
        () => requestRedemption(db, intruder, o.id, at("2026-03-02T01:00:00Z")),
        () => getUserOrder(db, intruder.id, o.id),
      ]) {
        expect((await refusal(attempt())).code).toBe("EARN_ORDER_NOT_FOUND");
      }
      expect((await order(o.id)).status).toBe("holding");
      expect((await requestRedemption(db, user, o.id, at("2026-03-02T01:00:00Z"))).status).toBe("redeeming");
      expect(await available(user.id)).toBe("0");
      await rejectRedemption(db, { orderId: o.id, operatorId: 1, actor: "op", reason: "lock-up" });
      expect((await order(o.id)).status).toBe("redemption_rejected");
      expect(
        (await refusal(rejectRedemption(db, { orderId: o.id, operatorId: 1, actor: "op", reason: "x" })))
          .code,
      ).toBe("ALREADY_REVIEWED");
      await requestRedemption(db, user, o.id, at("2026-03-03T01:00:00Z"));
      await approveRedemption(db, { orderId: o.id, operatorId: 1, actor: "op" }, at("2026-03-03T02:00:00Z"));
      const done = await order(o.id);
      expect(done.status).toBe("redeemed");
      // 2 days × 4 + 950
      expect(await available(user.id)).toBe("958");
      expect(await available(intruder.id)).toBe("1000");
      await expectReconciled();
    } finally {
      await setPolicy(db, "earn.redemption.review", false, "test");
    }
  });
});
