import { setPolicy } from "@northstar/domain/policy";
import { SpotMatcher } from "@northstar/domain/spot";
import { translate } from "@northstar/shared/i18n";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testRedisUrl } from "../../../../packages/domain/src/test-support/index.ts";
import { expectOk, expectTrpcRefusal } from "../test/fixtures.ts";
import { createHarness, type Harness } from "../test/harness.ts";
import { balanceOf, dataOf, expectLedgerBalanced, grant, setTradePassword, userIdOf } from "../test/money.ts";

/** Spot trading through tRPC, as the trade screen calls it, with the real matcher running. */
let h: Harness;
let matcher: SpotMatcher;
beforeAll(async () => {
  h = await createHarness();
  matcher = new SpotMatcher({
    db: h.db,
    redis: new Redis(testRedisUrl()),
    prefix: h.redisPrefix,
    blockMs: 10,
  });
  await matcher.start();
});
afterAll(async () => {
  await matcher?.stop();
  await h?.close();
});

type Order = { id: number; status: string; held?: string; price: string | null; filled_qty: string };
const orders = async (token: string, scope: "open" | "history" = "open") =>
  dataOf<{ items: Order[]; total: number }>(
    await h.trpc("spot.getMany", { scope, symbol: "BTCUSDT" }, token, "query"),
  );

async function until<T>(probe: () => Promise<T>, done: (v: T) => boolean): Promise<T> {
  for (let i = 0; i < 300; i++) {
    const value = await probe();
    if (done(value)) {
      return value;
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error("timed out");
}

describe("spot over tRPC", () => {
  it("shows every visitor the market's terms: grid, fees and limits from policy", async () => {
    const terms = dataOf(await h.trpc("spot.terms", { symbol: "btcusdt" }, undefined, "query"));
    expect(terms).toMatchObject({
      symbol: "BTCUSDT",
      base: "BTC",
      quote: "USDT",
      open: true,
      makerFee: "0.001",
      takerFee: "0.001",
      marketProtection: "0.05",
      tradePasswordRequired: false,
      maxOpenOrders: 200,
    });
    expectTrpcRefusal(
      await h.trpc("spot.terms", { symbol: "EURUSD" }, undefined, "query"),
      "SPOT_NOT_AVAILABLE",
    );
  });

  it("asks a visitor to log in before ordering", async () => {
    const res = await h.trpc("spot.place", {
      symbol: "BTCUSDT",
      side: "buy",
      type: "limit",
      price: "1",
      quantity: "1",
    });
    expectTrpcRefusal(res, "LOGIN_REQUIRED", { responseCode: 2000 });
  });

  it("refuses incomplete and off-grid orders naming the field, in the caller's language", async () => {
    const u = await h.registerByEmail();
    const missing = await h.trpc(
      "spot.place",
      { symbol: "BTCUSDT", side: "buy", type: "limit", quantity: "0.001" },
      u.token,
    );
    expect(missing.body.error?.data).toMatchObject({ errorCode: "FIELD_REQUIRED", field: "price" });
    const badSide = await h.trpc(
      "spot.place",
      { symbol: "BTCUSDT", side: "long", type: "limit", price: "1", quantity: "1" },
      u.token,
    );
    expect(badSide.body.error?.data).toMatchObject({ errorCode: "FIELD_INVALID", field: "side" });
    const offTick = await h.app.inject({
      method: "POST",
      url: "/trpc/spot.place",
      payload: JSON.stringify({
        symbol: "BTCUSDT",
        side: "buy",
        type: "limit",
        price: "60000.001",
        quantity: "0.001",
      }),
      headers: { "content-type": "application/json", authorization: `Bearer ${u.token}`, lang: "zh" },
    });
    const body = offTick.json() as { error: { message: string; data: { errorCode: string; field: string } } };
    expect(body.error.data).toMatchObject({ errorCode: "PRICE_OFF_TICK", field: "price" });
    expect(body.error.message).toBe(translate("zh", "errors.PRICE_OFF_TICK", { tick: "0.01" }));
    expectTrpcRefusal(
      await h.trpc(
        "spot.place",
        { symbol: "BTCUSDT", side: "buy", type: "limit", price: "60000", quantity: "0.001" },
        u.token,
      ),
      "INSUFFICIENT_BALANCE",
    );
    expect(await balanceOf(h, await userIdOf(h, u.token))).toEqual({ available: "0", held: "0" });
  });

  it("places with the createOrder message, lists, keeps orders private, and cancels", async () => {
    const u = await h.registerByEmail();
    const other = await h.registerByEmail();
    const userId = await userIdOf(h, u.token);
    await grant(h, userId, "1000");
    const placed = await h.trpc(
      "spot.place",
      { symbol: "BTCUSDT", side: "buy", type: "limit", price: "50000", quantity: "0.01" },
      u.token,
    );
    expectOk(placed);
    const answer = dataOf<{ order: Order; event: string; message: string }>(placed);
    expect(answer).toMatchObject({ event: "createOrder", message: translate("en", "api.orderPlaced") });
    expect(await balanceOf(h, userId)).toEqual({ available: "500", held: "500" });
    const balances = dataOf(await h.trpc("spot.balances", { symbol: "BTCUSDT" }, u.token, "query"));
    expect(balances).toEqual({
      base: { currency: "BTC", available: "0", held: "0" },
      quote: { currency: "USDT", available: "500", held: "500" },
    });
    const open = await until(
      () => orders(u.token),
      (o) => o.items[0]?.status === "open",
    );
    expect(open.items.map((o) => o.id)).toEqual([answer.order.id]);
    expect((await orders(other.token)).total).toBe(0);
    expectTrpcRefusal(await h.trpc("spot.cancel", { id: answer.order.id }, other.token), "ORDER_NOT_FOUND");

    expectOk(await h.trpc("spot.cancel", { id: answer.order.id }, u.token));
    const history = await until(
      () => orders(u.token, "history"),
      (o) => o.items[0]?.status === "cancelled",
    );
    expect(history.items[0]?.id).toBe(answer.order.id);
    expect(await balanceOf(h, userId)).toEqual({ available: "1000", held: "0" });
    expectTrpcRefusal(await h.trpc("spot.cancel", { id: answer.order.id }, u.token), "ORDER_NOT_OPEN");
    await expectLedgerBalanced(h);
  });

  it("asks for the trade password when policy requires it", async () => {
    const u = await h.registerByEmail();
    await grant(h, await userIdOf(h, u.token), "100");
    await setPolicy(h.db, "spot.tradePassword.required", true, "test");
    // Terms are cached for a second; wait until the new policy shows.
    await until(
      async () =>
        dataOf<{ tradePasswordRequired: boolean }>(
          await h.trpc("spot.terms", { symbol: "BTCUSDT" }, undefined, "query"),
        ),
      (t) => t.tradePasswordRequired,
    );
    const order = { symbol: "BTCUSDT", side: "buy", type: "limit", price: "50000", quantity: "0.001" };
    const missing = await h.trpc("spot.place", order, u.token);
    expect(missing.body.error?.data).toMatchObject({ errorCode: "FIELD_REQUIRED", field: "trade_password" });
    expectTrpcRefusal(
      await h.trpc("spot.place", { ...order, trade_password: "123456" }, u.token),
      "TRADE_PASSWORD_NOT_SET",
    );
    await setTradePassword(h, u, "246810");
    const wrong = await h.trpc("spot.place", { ...order, trade_password: "111111" }, u.token);
    expect(wrong.body.error?.data).toMatchObject({ errorCode: "TRADE_PASSWORD_WRONG" });
    expectOk(await h.trpc("spot.place", { ...order, trade_password: "246810" }, u.token));
    await setPolicy(h.db, "spot.tradePassword.required", false, "test");
  });
});
