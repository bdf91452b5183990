import { randomBytes } from "node:crypto";
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
      headers: {
        "content-type": "application/json",
        authorization: `Bearer ${u.token}`,
        lang: "zh",
        "idempotency-key": "off-tick-01",
      },
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
    // The next tests order without one: wait until the cached terms have let the requirement go.
    await until(
      async () =>
        dataOf<{ tradePasswordRequired: boolean }>(
          await h.trpc("spot.terms", { symbol: "BTCUSDT" }, undefined, "query"),
        ),
      (t) => !t.tradePasswordRequired,
    );
  });
});

describe("spot.place and spot.cancel answered directly", () => {
  /**
   * The same request to the direct route (the plain URL) and to the tRPC adapter (the same call with a
   * query string, which the direct route leaves to the adapter): status, headers and body. Each goes
   * with a fresh Idempotency-Key of its own unless `headers` names one (an empty one: none).
   */
  async function both(path: string, payload: string, headers: Record<string, string>) {
    const send = (url: string) =>
      h.app.inject({
        method: "POST",
        url,
        payload,
        headers: {
          "content-type": "application/json",
          "idempotency-key": randomBytes(12).toString("base64url"),
          ...headers,
        },
      });
    const [direct, adapter] = [await send(`/trpc/${path}`), await send(`/trpc/${path}?via=adapter`)];
    const answer = (r: typeof direct) => ({
      status: r.statusCode,
      type: r.headers["content-type"],
      vary: r.headers.vary,
      body: r.body,
    });
    return { direct: answer(direct), adapter: answer(adapter) };
  }
  const order = { symbol: "BTCUSDT", side: "buy", type: "limit", price: "50000", quantity: "0.001" };

  it("is a route of its own for the two calls only", () => {
    expect(h.app.hasRoute({ method: "POST", url: "/trpc/spot.place" })).toBe(true);
    expect(h.app.hasRoute({ method: "POST", url: "/trpc/spot.cancel" })).toBe(true);
    expect(h.app.hasRoute({ method: "POST", url: "/trpc/spot.balances" })).toBe(false);
  });

  it("refuses exactly as the tRPC adapter does: NUL bytes, login, input, domain refusals, bad bodies", async () => {
    const u = await h.registerByEmail();
    const auth = { authorization: `Bearer ${u.token}` };
    const cases: [string, string, Record<string, string>, number][] = [
      ["spot.place", JSON.stringify(order), {}, 401],
      ["spot.place", JSON.stringify(order), { authorization: "Bearer nope" }, 401],
      ["spot.place", JSON.stringify({ ...order, side: "long" }), auth, 400],
      ["spot.place", JSON.stringify({ ...order, symbol: "BTC\u0000USDT" }), auth, 400],
      ["spot.place", JSON.stringify({ ...order, side: "long" }), {}, 401],
      ["spot.place", JSON.stringify({ ...order, symbol: "XYZUSDT" }), auth, 400],
      ["spot.place", JSON.stringify({ ...order, price: undefined }), { ...auth, lang: "zh" }, 400],
      ["spot.place", JSON.stringify({ ...order, price: "50000.001" }), { ...auth, lang: "zh" }, 400],
      ["spot.place", JSON.stringify(order), auth, 400],
      ["spot.place", "", auth, 400],
      ["spot.place", "{", auth, 400],
      ["spot.place", JSON.stringify(order), { ...auth, "idempotency-key": "x".repeat(500) }, 400],
      ["spot.place", JSON.stringify(order), { ...auth, "idempotency-key": "" }, 400],
      ["spot.cancel", JSON.stringify({ id: "one" }), auth, 400],
      ["spot.cancel", JSON.stringify({ id: 2 ** 40 }), auth, 400],
    ];
    for (const [path, payload, headers, status] of cases) {
      const { direct, adapter } = await both(path, payload, headers);
      expect(direct).toEqual(adapter);
      expect(direct.status).toBe(status);
    }
  });

  it("places and cancels with the adapter's answer, and a resent key answers the first order either way", async () => {
    const u = await h.registerByEmail();
    const userId = await userIdOf(h, u.token);
    await grant(h, userId, "1000");
    const auth = { authorization: `Bearer ${u.token}` };
    const { direct, adapter } = await both("spot.place", JSON.stringify(order), auth);
    const shape = (body: string) => {
      const { result } = JSON.parse(body) as { result: { data: { order: Record<string, unknown> } } };
      const { id: _id, created_at: _c, updated_at: _u, ...rest } = result.data.order;
      return { ...result.data, order: rest };
    };
    expect({ ...direct, body: shape(direct.body) }).toEqual({ ...adapter, body: shape(adapter.body) });
    expect(direct.status).toBe(200);
    expect(await balanceOf(h, userId)).toEqual({ available: "900", held: "100" });

    // A key first used through the adapter is found by the direct route, and the other way round.
    const keyed = { ...auth, "idempotency-key": "direct-key-1" };
    const first = await h.app.inject({
      method: "POST",
      url: "/trpc/spot.place?via=adapter",
      payload: JSON.stringify(order),
      headers: { "content-type": "application/json", ...keyed },
    });
    const resent = await both("spot.place", JSON.stringify(order), keyed);
    const idOf = (body: string) =>
      (JSON.parse(body) as { result: { data: { order: { id: number } } } }).result.data.order.id;
    expect(idOf(resent.direct.body)).toBe(idOf(first.body));
    expect(idOf(resent.adapter.body)).toBe(idOf(first.body));
    const reused = await both("spot.place", JSON.stringify({ ...order, quantity: "0.002" }), keyed);
    expect(reused.direct).toEqual(reused.adapter);
    expect(JSON.parse(reused.direct.body).error.data.errorCode).toBe("IDEMPOTENCY_KEY_REUSED");
    expect(await balanceOf(h, userId)).toEqual({ available: "850", held: "150" });

    // Cancelling: someone else's order is not found either way; one's own is cancelled once.
    const other = await h.registerByEmail();
    const id = idOf(first.body);
    const foreign = await both("spot.cancel", JSON.stringify({ id }), {
      authorization: `Bearer ${other.token}`,
    });
    expect(foreign.direct).toEqual(foreign.adapter);
    expect(JSON.parse(foreign.direct.body).error.data.errorCode).toBe("ORDER_NOT_FOUND");
    const cancelled = await h.app.inject({
      method: "POST",
      url: "/trpc/spot.cancel",
      payload: JSON.stringify({ id }),
      headers: { "content-type": "application/json", ...auth },
    });
    expect(cancelled.statusCode).toBe(200);
    expect(JSON.parse(cancelled.body).result.data.order.id).toBe(id);
    await until(
      () => balanceOf(h, userId),
      (b) => b.held === "100",
    );
    await expectLedgerBalanced(h);
  });
});
