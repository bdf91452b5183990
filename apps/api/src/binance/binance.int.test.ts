import { createHmac } from "node:crypto";
import { SpotMatcher } from "@northstar/domain/spot";
import type { FastifyInstance } from "fastify";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testRedisUrl } from "../../../../packages/domain/src/test-support/index.ts";
import { buildApp } from "../app.ts";
import { expectTrpcRefusal } from "../test/fixtures.ts";
import { createHarness, type Harness } from "../test/harness.ts";
import {
  balanceOf,
  dataOf,
  grant,
  operatorToken,
  policy,
  setTradePassword,
  userIdOf,
} from "../test/money.ts";

/** The Binance-compatible spot subset over HTTP: keys, signed requests and their refusals, orders. */
let h: Harness;
let matcher: SpotMatcher;
let now = Date.now();
beforeAll(async () => {
  h = await createHarness({ clock: () => now });
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

interface Key {
  api_key: string;
  secret: string;
  key: { id: number; status: string; key_prefix: string };
}
let seq = 0;

const screenAsksTradePassword = async () =>
  dataOf<{ tradePasswordRequired: boolean }>(
    await h.trpc("spot.terms", { symbol: "BTCUSDT" }, undefined, "query"),
  ).tradePasswordRequired;

async function newTrader(opts: { spot_trade?: boolean; ip_allow_list?: string } = {}) {
  const u = await h.registerByEmail();
  await setTradePassword(h, u);
  const userId = await userIdOf(h, u.token);
  const key = dataOf<Key>(
    await h.trpc(
      "apiKeys.create",
      {
        label: "bot",
        spot_trade: opts.spot_trade ?? true,
        trade_password: "123456",
        ip_allow_list: opts.ip_allow_list ?? "",
      },
      u.token,
    ),
  );
  return { ...u, userId, key };
}

const sign = (secret: string, payload: string) => createHmac("sha256", secret).update(payload).digest("hex");

/** A signed call as Binance clients make it: query for GET/DELETE, form body for POST. */
async function call(
  method: "GET" | "POST" | "DELETE",
  path: string,
  key: { api_key: string; secret: string },
  params: Record<string, string> = {},
  tweak: {
    timestamp?: number;
    alter?: (q: string) => string;
    signWith?: string;
    apiKey?: string;
    /** another instance of the API over the same database and Redis */
    app?: FastifyInstance;
  } = {},
) {
  const app = tweak.app ?? h.app;
  // A distinct timestamp per call: the clock stands still in these tests, and a repeated signature is a replay.
  const query = new URLSearchParams({
    ...params,
    timestamp: String(tweak.timestamp ?? now - ++seq),
  }).toString();
  const signature = sign(tweak.signWith ?? key.secret, query);
  const sent = `${tweak.alter ? tweak.alter(query) : query}&signature=${signature}`;
  const headers = { "x-mbx-apikey": tweak.apiKey ?? key.api_key };
  const response =
    method === "POST"
      ? await app.inject({
          method,
          url: path,
          payload: sent,
          headers: { ...headers, "content-type": "application/x-www-form-urlencoded" },
        })
      : await app.inject({ method, url: `${path}?${sent}`, headers });
  return { status: response.statusCode, body: response.json(), headers: response.headers };
}

const orderCount = async (userId: number) =>
  Number(
    (
      await h.db.execute<{ n: string }>(
        `select count(*)::text as n from spot_orders where user_id = ${userId}`,
      )
    ).rows[0]?.n,
  );

describe("public market data", () => {
  it("answers ping, time and exchangeInfo with the catalogue's grid as Binance filters", async () => {
    expect((await h.app.inject("/api/v3/ping")).json()).toEqual({});
    expect((await h.app.inject("/api/v3/time")).json()).toEqual({ serverTime: now });
    const info = (await h.app.inject("/api/v3/exchangeInfo?symbol=BTCUSDT")).json();
    expect(info.symbols).toHaveLength(1);
    const btc = info.symbols[0];
    expect(btc).toMatchObject({ symbol: "BTCUSDT", baseAsset: "BTC", quoteAsset: "USDT", status: "TRADING" });
    const terms = dataOf<{ tickSize: string; lotSize: string; minQty: string }>(
      await h.trpc("spot.terms", { symbol: "BTCUSDT" }, undefined, "query"),
    );
    const filter = (type: string) => btc.filters.find((f: { filterType: string }) => f.filterType === type);
    expect(Number(filter("PRICE_FILTER").tickSize)).toBe(Number(terms.tickSize));
    expect(Number(filter("LOT_SIZE").stepSize)).toBe(Number(terms.lotSize));
    expect(Number(filter("LOT_SIZE").minQty)).toBe(Number(terms.minQty));
    const bad = await h.app.inject("/api/v3/depth?symbol=NOPEUSDT");
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: -1121 });
  });
});

describe("the reference", () => {
  it("serves the OpenAPI document and a readable page with the signing rules", async () => {
    const json = await h.app.inject("/api/docs/openapi.json");
    expect(json.statusCode).toBe(200);
    expect(json.json()).toMatchObject({ openapi: "3.1.0", paths: { "/api/v3/order": {} } });
    const page = await h.app.inject("/api/docs");
    expect(page.headers["content-type"]).toContain("text/html");
    expect(page.body).toContain("X-MBX-APIKEY");
    expect(page.body).toContain("/api/v3/myTrades");
  });
});

describe("API keys", () => {
  it("shows the secret once and keeps neither the key nor the secret readable in the database", async () => {
    const t = await newTrader();
    expect(t.key.api_key).toMatch(/^[A-Za-z0-9]{64}$/);
    expect(t.key.secret).toMatch(/^[A-Za-z0-9]{64}$/);
    const listed = JSON.stringify(dataOf(await h.trpc("apiKeys.list", undefined, t.token, "query")));
    expect(listed).not.toContain(t.key.secret);
    expect(listed).not.toContain(t.key.api_key);
    const dump = JSON.stringify(
      (await h.db.execute(`select * from api_keys where user_id = ${t.userId}`)).rows,
    );
    expect(dump).not.toContain(t.key.secret);
    expect(dump).not.toContain(t.key.api_key);
  });

  it("refuses a key without the right trade password, and creates nothing", async () => {
    const u = await h.registerByEmail();
    await setTradePassword(h, u);
    const res = await h.trpc(
      "apiKeys.create",
      { label: "bot", spot_trade: true, trade_password: "654321" },
      u.token,
    );
    expectTrpcRefusal(res, "TRADE_PASSWORD_WRONG");
    expect(dataOf<unknown[]>(await h.trpc("apiKeys.list", undefined, u.token, "query"))).toEqual([]);
  });
});

describe("signed requests", () => {
  it("answers the account of a well-signed request", async () => {
    const t = await newTrader();
    await grant(h, t.userId, "1000");
    const res = await call("GET", "/api/v3/account", t.key);
    expect(res.status).toBe(200);
    expect(res.body.balances).toContainEqual({ asset: "USDT", free: "1000", locked: "0" });
    expect(res.body.canWithdraw).toBe(false);
  });

  it("refuses stale, altered, replayed, wrongly keyed, unpermitted and foreign-address requests without placing anything", async () => {
    const t = await newTrader();
    const reader = await newTrader({ spot_trade: false });
    const pinned = await newTrader({ ip_allow_list: "203.0.113.7" });
    await grant(h, t.userId, "1000");
    await grant(h, reader.userId, "1000");
    await grant(h, pinned.userId, "1000");
    const order = {
      symbol: "BTCUSDT",
      side: "BUY",
      type: "LIMIT",
      timeInForce: "GTC",
      price: "100",
      quantity: "1",
    };
    const refusals: [Awaited<ReturnType<typeof call>>, number][] = [
      [await call("POST", "/api/v3/order", t.key, order, { timestamp: now - 6000 }), -1021],
      [await call("POST", "/api/v3/order", t.key, order, { timestamp: now + 5000 }), -1021],
      [
        await call("POST", "/api/v3/order", t.key, order, {
          alter: (q) => q.replace("quantity=1", "quantity=2"),
        }),
        -1022,
      ],
      [await call("POST", "/api/v3/order", t.key, order, { signWith: reader.key.secret }), -1022],
      [await call("POST", "/api/v3/order", t.key, order, { apiKey: "A".repeat(64) }), -2015],
      [await call("POST", "/api/v3/order", reader.key, order), -2015],
      [await call("POST", "/api/v3/order", pinned.key, order), -2015],
    ];
    for (const [res, code] of refusals) {
      expect(res.body.code).toBe(code);
      expect(typeof res.body.msg).toBe("string");
    }
    expect(await orderCount(t.userId)).toBe(0);
    expect(await orderCount(reader.userId)).toBe(0);
    expect(await orderCount(pinned.userId)).toBe(0);
    expect(await balanceOf(h, t.userId)).toEqual({ available: "1000", held: "0" });

    // The same signed request twice: the second is a replay and places nothing.
    const query = new URLSearchParams({ ...order, timestamp: String(now - ++seq) }).toString();
    const body = `${query}&signature=${sign(t.key.secret, query)}`;
    const send = () =>
      h.app.inject({
        method: "POST",
        url: "/api/v3/order",
        payload: body,
        headers: { "x-mbx-apikey": t.key.api_key, "content-type": "application/x-www-form-urlencoded" },
      });
    expect((await send()).statusCode).toBe(200);
    const replay = await send();
    expect(replay.json()).toMatchObject({ code: -1022 });
    expect(await orderCount(t.userId)).toBe(1);
  });

  it("limits requests per key with 429 and Retry-After", async () => {
    const t = await newTrader();
    await policy(h, "apikeys.requestsPerSecond", 3);
    try {
      const answers = [];
      for (let i = 0; i < 4; i++) {
        answers.push(await call("GET", "/api/v3/account", t.key));
      }
      expect(answers.slice(0, 3).map((a) => a.status)).toEqual([200, 200, 200]);
      expect(answers[3]?.status).toBe(429);
      expect(answers[3]?.body.code).toBe(-1003);
      expect(answers[3]?.headers["retry-after"]).toBe("1");
      // The next second the key may call again.
      now += 1000;
      expect((await call("GET", "/api/v3/account", t.key)).status).toBe(200);
    } finally {
      await policy(h, "apikeys.requestsPerSecond", 50);
    }
  });

  it("places key-signed orders without the trade password, even where the policy asks it of the screen", async () => {
    await policy(h, "spot.tradePassword.required", true);
    try {
      // Spot terms are cached for a second: both orders below go once the requirement shows.
      await expect.poll(screenAsksTradePassword).toBe(true);
      const t = await newTrader();
      await grant(h, t.userId, "1000");
      const res = await call("POST", "/api/v3/order", t.key, {
        symbol: "BTCUSDT",
        side: "BUY",
        type: "LIMIT",
        timeInForce: "GTC",
        price: "100",
        quantity: "1",
        newClientOrderId: "no-password-1",
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        symbol: "BTCUSDT",
        clientOrderId: "no-password-1",
        side: "BUY",
        type: "LIMIT",
      });
      // The screen's tRPC path still asks for it.
      const screen = await h.trpc(
        "spot.place",
        { symbol: "BTCUSDT", side: "buy", type: "limit", price: "100", quantity: "1" },
        t.token,
      );
      expect(screen.body.error?.data.errorCode).toBe("FIELD_REQUIRED");
    } finally {
      await policy(h, "spot.tradePassword.required", false);
      await expect.poll(screenAsksTradePassword).toBe(false);
    }
  });

  it("refuses FOK and stop orders in Binance's shape, placing nothing", async () => {
    const t = await newTrader();
    await grant(h, t.userId, "1000");
    const base = { symbol: "BTCUSDT", side: "BUY", price: "100", quantity: "1" };
    const fok = await call("POST", "/api/v3/order", t.key, { ...base, type: "LIMIT", timeInForce: "FOK" });
    expect(fok.body.code).toBe(-1115);
    const stop = await call("POST", "/api/v3/order", t.key, {
      ...base,
      type: "STOP_LOSS_LIMIT",
      timeInForce: "GTC",
    });
    expect(stop.body.code).toBe(-1116);
    expect(await orderCount(t.userId)).toBe(0);
  });

  it("makes one order of 50 concurrent resends of one newClientOrderId, each answering it", async () => {
    const t = await newTrader();
    await grant(h, t.userId, "1000");
    await policy(h, "apikeys.ordersPerSecond", 100);
    await policy(h, "apikeys.requestsPerSecond", 100);
    try {
      const order = {
        symbol: "BTCUSDT",
        side: "BUY",
        type: "LIMIT",
        timeInForce: "GTC",
        price: "100",
        quantity: "1",
        newClientOrderId: "resend-me",
      };
      const answers = await Promise.all(
        Array.from({ length: 50 }, () => call("POST", "/api/v3/order", t.key, order)),
      );
      expect(answers.map((a) => a.status)).toEqual(Array(50).fill(200));
      const ids = new Set(answers.map((a) => a.body.orderId));
      expect(ids.size).toBe(1);
      expect(await orderCount(t.userId)).toBe(1);
      expect(await balanceOf(h, t.userId)).toEqual({ available: "900", held: "100" });
      // Found again by its client id, and cancelled by it.
      const found = await call("GET", "/api/v3/order", t.key, {
        symbol: "BTCUSDT",
        origClientOrderId: "resend-me",
      });
      expect(found.body.orderId).toBe([...ids][0]);
      const cancelled = await call("DELETE", "/api/v3/order", t.key, {
        symbol: "BTCUSDT",
        origClientOrderId: "resend-me",
      });
      expect(cancelled.status).toBe(200);
    } finally {
      await policy(h, "apikeys.ordersPerSecond", 10);
      await policy(h, "apikeys.requestsPerSecond", 50);
    }
  });

  it("stops a key its owner disabled or an operator blocked; the block is audited and only the operator lifts it", async () => {
    const t = await newTrader();
    expect((await call("GET", "/api/v3/account", t.key)).status).toBe(200);
    dataOf(await h.trpc("apiKeys.setEnabled", { id: t.key.key.id, enabled: false }, t.token));
    expect((await call("GET", "/api/v3/account", t.key)).body.code).toBe(-2015);
    dataOf(await h.trpc("apiKeys.setEnabled", { id: t.key.key.id, enabled: true }, t.token));
    expect((await call("GET", "/api/v3/account", t.key)).status).toBe(200);

    const op = await operatorToken(h, "admin");
    const blocked = await h.app.inject({
      method: "POST",
      url: "/trpc/apiKeysAdmin.setBlocked",
      payload: JSON.stringify({ id: t.key.key.id, blocked: true, reason: "abuse" }),
      headers: { "x-operator-token": op, "content-type": "application/json" },
    });
    expect(blocked.json()).toMatchObject({ result: { data: { status: "blocked" } } });
    expect((await call("GET", "/api/v3/account", t.key)).body.code).toBe(-2015);
    const retry = await h.trpc("apiKeys.setEnabled", { id: t.key.key.id, enabled: true }, t.token);
    expectTrpcRefusal(retry, "FORBIDDEN");
    const audit = await h.db.execute<{ action: string }>(
      `select action from audit_log where action = 'apikey.block' and subject = 'user:${t.userId}'`,
    );
    expect(audit.rows).toHaveLength(1);

    dataOf(await h.trpc("apiKeys.delete", { id: t.key.key.id }, t.token));
    expect((await call("GET", "/api/v3/account", t.key)).body.code).toBe(-2015);
    expect(dataOf<unknown[]>(await h.trpc("apiKeys.list", undefined, t.token, "query"))).toEqual([]);
  });

  it("keeps keys in memory per instance, yet a key disabled, blocked or deleted on one instance is refused at once on another", async () => {
    const other = await buildApp(h.deps);
    try {
      const t = await newTrader();
      const account = (app?: FastifyInstance) =>
        call("GET", "/api/v3/account", t.key, {}, app ? { app } : {});
      expect((await account()).status).toBe(200);
      expect((await account(other)).status).toBe(200);
      // The second instance answers from its copy: a row changed behind the service's back is not read
      // (the clock stands still here, so the copy does not expire).
      await h.db.execute(`update api_keys set permissions = '{}' where id = ${t.key.key.id}`);
      expect((await account(other)).status).toBe(200);
      await h.db.execute(`update api_keys set permissions = '{read,spot_trade}' where id = ${t.key.key.id}`);

      // Disabled through the first instance: the second refuses the very next request.
      dataOf(await h.trpc("apiKeys.setEnabled", { id: t.key.key.id, enabled: false }, t.token));
      expect((await account(other)).body.code).toBe(-2015);
      dataOf(await h.trpc("apiKeys.setEnabled", { id: t.key.key.id, enabled: true }, t.token));
      expect((await account(other)).status).toBe(200);
      // An address list set on one instance holds on the other at once.
      dataOf(await h.trpc("apiKeys.update", { id: t.key.key.id, ip_allow_list: "10.9.8.7" }, t.token));
      expect((await account(other)).body.code).toBe(-2015);
      dataOf(await h.trpc("apiKeys.update", { id: t.key.key.id, ip_allow_list: "" }, t.token));
      expect((await account(other)).status).toBe(200);

      const op = await operatorToken(h, "admin");
      const blocked = await h.app.inject({
        method: "POST",
        url: "/trpc/apiKeysAdmin.setBlocked",
        payload: JSON.stringify({ id: t.key.key.id, blocked: true }),
        headers: { "x-operator-token": op, "content-type": "application/json" },
      });
      expect(blocked.statusCode).toBe(200);
      expect((await account(other)).body.code).toBe(-2015);
      const unblocked = await other.inject({
        method: "POST",
        url: "/trpc/apiKeysAdmin.setBlocked",
        payload: JSON.stringify({ id: t.key.key.id, blocked: false }),
        headers: { "x-operator-token": op, "content-type": "application/json" },
      });
      expect(unblocked.statusCode).toBe(200);
      expect((await account()).status).toBe(200);

      dataOf(await h.trpc("apiKeys.delete", { id: t.key.key.id }, t.token));
      expect((await account(other)).body.code).toBe(-2015);
      expect((await account()).body.code).toBe(-2015);

      const owner = await newTrader();
      // The owner frozen by an operator: the keys stop on every instance at once, and work again after.
      const status = (name: string) =>
        h.app.inject({
          method: "POST",
          url: `/trpc/admin.${name}`,
          payload: JSON.stringify({ user_id: owner.userId, reason: "review" }),
          headers: { "x-operator-token": op, "content-type": "application/json" },
        });
      expect((await call("GET", "/api/v3/account", owner.key, {}, { app: other })).status).toBe(200);
      expect((await status("freezeUser")).statusCode).toBe(200);
      expect((await call("GET", "/api/v3/account", owner.key, {}, { app: other })).body.code).toBe(-2015);
      expect((await status("unfreezeUser")).statusCode).toBe(200);
      expect((await call("GET", "/api/v3/account", owner.key, {}, { app: other })).status).toBe(200);
    } finally {
      await other.close();
    }
  });
});
