import { randomBytes } from "node:crypto";
import { postEntry } from "@northstar/domain/ledger";
import { recordTicks } from "@northstar/domain/options";
import { translate } from "@northstar/shared/i18n";
import { MoneyDecimal } from "@northstar/shared/money";
import { POLICY } from "@northstar/shared/policy";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectOk, expectTrpcRefusal, query } from "../test/fixtures.ts";
import { createHarness, type Harness } from "../test/harness.ts";
import {
  balanceOf,
  dataOf,
  expectLedgerBalanced,
  policy,
  systemBalance,
  type TrpcResult,
  userIdOf,
} from "../test/money.ts";

/**
 * Options through the API: the purchase as the web sends it (with an Idempotency-Key), its refusals
 * in the caller's language with nothing changed, and the user's own orders only.
 */
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h?.close();
});

const newKey = () => randomBytes(12).toString("base64url");

async function keyed(input: unknown, token: string, key: string, lang = "en"): Promise<TrpcResult> {
  const response = await h.app.inject({
    method: "POST",
    url: "/trpc/options.buy",
    payload: JSON.stringify(input),
    headers: {
      authorization: `Bearer ${token}`,
      "content-type": "application/json",
      "idempotency-key": key,
      lang,
    },
  });
  return { status: response.statusCode, body: response.json() };
}

type U = { token: string; userId: number };
async function optionUser(funds: string): Promise<U> {
  const u = await h.registerByEmail();
  const userId = await userIdOf(h, u.token);
  const key = `option-grant:${userId}:${randomBytes(3).toString("hex")}`;
  await postEntry(h.db, {
    idempotencyKey: key,
    kind: "test.grant",
    reference: { type: "test", id: key },
    postings: [
      { account: { system: "deposit_clearing:test", book: "real", currency: "USDT" }, amount: `-${funds}` },
      { account: { userId, book: "real", wallet: "option", currency: "USDT" }, amount: funds },
    ],
  });
  return { token: u.token, userId };
}

/** A fresh feed price, as the worker records it. */
const freshTick = (symbol = "BTCUSDT", price = "90000") =>
  recordTicks(h.db, [{ symbol, price, time: Date.now() }]);
const option = (balanceUser: U) => balanceOf(h, balanceUser.userId, "USDT", "option");
const orderCount = async (userId: number) =>
  (
    await query<{ n: number }>(h, "select count(*)::int as n from option_orders where user_id = $1", [userId])
  )[0]?.n;
const up = (over: Record<string, unknown> = {}) => ({
  symbol: "BTCUSDT",
  direction: "up",
  amount: "100",
  period_seconds: 60,
  ...over,
});

describe("options.buy", () => {
  it("shows the products with payout and fee before buying", async () => {
    const products = dataOf<
      { symbol: string; tie: string; periods: { seconds: number; payout_rate: string }[] }[]
    >(await h.trpc("options.products", undefined, undefined, "query"));
    const btc = products.find((p) => p.symbol === "BTCUSDT");
    expect(btc?.tie).toBe("refund");
    expect(btc?.periods.map((p) => p.seconds)).toEqual([30, 60, 120, 300, 3600, 86400]);
  });

  it("sent 20 times at once with one Idempotency-Key, buys once and answers every request with that order", async () => {
    const u = await optionUser("1000");
    await freshTick();
    const key = newKey();
    const houseBefore = await systemBalance(h, "options_house");
    const answers = await Promise.all(Array.from({ length: 20 }, () => keyed(up(), u.token, key)));
    const ok = answers.filter((a) => a.body.error === undefined);
    for (const a of answers.filter((x) => x.body.error !== undefined)) {
      expectTrpcRefusal(a, "REQUEST_IN_PROGRESS");
    }
    expect(ok.length).toBeGreaterThanOrEqual(1);
    const ids = new Set(ok.map((a) => dataOf<{ id: number }>(a).id));
    expect(ids.size).toBe(1);
    // A retry after all of them gets the same order again.
    const again = dataOf<{ id: number }>(await keyed(up(), u.token, key));
    expect(ids.has(again.id)).toBe(true);
    expect(await orderCount(u.userId)).toBe(1);
    expect(await option(u)).toEqual({ available: "899", held: "0" });
    expect(new MoneyDecimal(await systemBalance(h, "options_house")).minus(houseBefore).toFixed()).toBe(
      "101",
    );
    await expectLedgerBalanced(h);
  });

  it("refuses in the caller's language and changes nothing", async () => {
    const u = await optionUser("50");
    await freshTick();
    const send = (over: Record<string, unknown>, lang = "en") => keyed(up(over), u.token, newKey(), lang);

    expectTrpcRefusal(await send({ amount: "50" }), "INSUFFICIENT_BALANCE");
    expectTrpcRefusal(await send({ amount: "50" }, "zh"), "INSUFFICIENT_BALANCE", { lang: "zh" });
    const below = await send({ amount: "5" }, "zh");
    expectTrpcRefusal(below, "OPTION_AMOUNT_BELOW_MINIMUM", { lang: "zh", params: { min: "10" } });
    expect(below.body.error?.message).toBe("金额低于最低 10 USDT");
    expectTrpcRefusal(await send({ amount: "20000.5" }), "OPTION_AMOUNT_ABOVE_MAXIMUM", {
      params: { max: "20000" },
    });
    const zero = await send({ amount: "0" });
    expectTrpcRefusal(zero, "INVESTMENT_NOT_POSITIVE");
    expect(zero.body.error?.message).toBe("The investment must be greater than 0");
    expectTrpcRefusal(await send({ amount: "-10" }, "ty"), "INVESTMENT_NOT_POSITIVE", { lang: "ty" });
    expect(translate("ty", "errors.INVESTMENT_NOT_POSITIVE")).not.toBe(zero.body.error?.message);
    expectTrpcRefusal(await send({ period_seconds: 7 }), "OPTION_NOT_AVAILABLE");

    // A market that is closed now: its trading hours are set to a session that never includes now.
    const day = (new Date().getUTCDay() + 3) % 7;
    await policy(h, "options.products", {
      ...POLICY["options.products"].default,
      ADAUSDT: {
        periods: [{ seconds: 60, payoutRate: "0.8", feeRate: "0.01", min: "1", max: "100" }],
        tie: "refund",
      },
    });
    await query(
      h,
      `update instruments set trading_hours = '{"timeZone":"UTC","sessions":[{"days":[${day}],"open":"00:00","close":"00:01"}]}'::jsonb where symbol = 'ADAUSDT'`,
    );
    await freshTick("ADAUSDT", "0.42");
    const closed = await send({ symbol: "ADAUSDT", amount: "10" }, "zh");
    expectTrpcRefusal(closed, "MARKET_CLOSED", { lang: "zh" });

    expect(await option(u)).toEqual({ available: "50", held: "0" });
    expect(await orderCount(u.userId)).toBe(0);
  });

  it("lists and shows only the user's own orders; another user's id reaches nothing", async () => {
    const owner = await optionUser("100");
    const other = await optionUser("100");
    await freshTick();
    const order = dataOf<{ id: number }>(await keyed(up({ amount: "10" }), owner.token, newKey()));
    expectOk(await h.trpc("options.order", { id: order.id }, owner.token, "query"));
    expectTrpcRefusal(
      await h.trpc("options.order", { id: order.id }, other.token, "query"),
      "ORDER_NOT_FOUND",
    );
    const mine = dataOf<{ items: { id: number }[] }>(
      await h.trpc("options.orders", { scope: "open" }, owner.token, "query"),
    );
    expect(mine.items.map((o) => o.id)).toEqual([order.id]);
    const theirs = dataOf<{ items: unknown[]; total: number }>(
      await h.trpc("options.orders", { scope: "open" }, other.token, "query"),
    );
    expect(theirs).toEqual({ items: [], total: 0 });
    expect(await option(other)).toEqual({ available: "100", held: "0" });
  });
});
