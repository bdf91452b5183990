import { writeCandles } from "@northstar/domain/markets";
import { SpotMatcher } from "@northstar/domain/spot";
import ccxt from "ccxt";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { testRedisUrl } from "../../../../packages/domain/src/test-support/index.ts";
import { createHarness, type Harness } from "../test/harness.ts";
import { dataOf, grant, setTradePassword, userIdOf } from "../test/money.ts";

/**
 * ccxt's own `binance` class drives the platform unchanged: only its URLs point here, and it is told
 * to load spot markets only, no margin pairs and no currencies (Binance's margin and wallet endpoints, not the spot API).
 */
let h: Harness;
let matcher: SpotMatcher;
let base = "";
beforeAll(async () => {
  h = await createHarness();
  matcher = new SpotMatcher({
    db: h.db,
    redis: new Redis(testRedisUrl()),
    prefix: h.redisPrefix,
    blockMs: 10,
  });
  await matcher.start();
  await h.app.listen({ port: 0, host: "127.0.0.1" });
  const address = h.app.server.address();
  base = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
});
afterAll(async () => {
  await matcher?.stop();
  await h?.close();
});

async function botFor(usdt: string, btc: string) {
  const u = await h.registerByEmail();
  await setTradePassword(h, u);
  const userId = await userIdOf(h, u.token);
  for (const [amount, currency] of [
    [usdt, "USDT"],
    [btc, "BTC"],
  ] as const) {
    if (amount !== "0") {
      await grant(h, userId, amount, currency);
    }
  }
  const key = dataOf<{ api_key: string; secret: string }>(
    await h.trpc("apiKeys.create", { label: "ccxt", spot_trade: true, trade_password: "123456" }, u.token),
  );
  const exchange = new ccxt.binance({
    apiKey: key.api_key,
    secret: key.secret,
    enableRateLimit: false,
    options: {
      fetchMarkets: { types: ["spot"] },
      fetchMargins: false,
      fetchCurrencies: false,
      defaultType: "spot",
    },
  });
  const api = exchange.urls.api as Record<string, string>;
  for (const name of ["public", "private", "v1"]) {
    api[name] = `${base}/api/v3`;
  }
  return { exchange, userId, key };
}

/** Polls until `done` holds; every wait in this file is for the matcher's own progress. */
async function until<T>(probe: () => Promise<T>, done: (v: T) => boolean): Promise<T> {
  for (let i = 0; i < 500; i++) {
    const value = await probe();
    if (done(value)) {
      return value;
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error("timed out");
}

describe("ccxt's binance class against the platform", () => {
  it("loads markets, reads balances, book and candles, places, lists, cancels and reads fills", async () => {
    const maker = await botFor("0", "2");
    const taker = await botFor("1000", "0");

    const markets = await taker.exchange.loadMarkets();
    const btc = markets["BTC/USDT"];
    expect(btc).toMatchObject({ id: "BTCUSDT", base: "BTC", quote: "USDT", spot: true, type: "spot" });
    expect(btc?.precision.price).toBeGreaterThan(0);

    const balance = await taker.exchange.fetchBalance();
    expect(balance.USDT).toMatchObject({ free: 1000, used: 0, total: 1000 });

    const minute = Math.floor(Date.now() / 60_000) * 60_000;
    await writeCandles(
      h.db,
      [3, 2, 1].map((back, i) => ({
        symbol: "BTCUSDT",
        period: "1m" as const,
        candle: {
          time: minute - back * 60_000,
          open: "100",
          high: "102",
          low: "99",
          close: String(100 + i),
          volume: "5",
        },
      })),
    );
    const candles = await taker.exchange.fetchOHLCV("BTC/USDT", "1m", undefined, 3);
    expect(candles).toEqual([
      [minute - 180_000, 100, 102, 99, 100, 5],
      [minute - 120_000, 100, 102, 99, 101, 5],
      [minute - 60_000, 100, 102, 99, 102, 5],
    ]);

    // A resting sell, then a limit buy below it that rests too, then a market buy that takes the sell.
    const sell = await maker.exchange.createOrder("BTC/USDT", "limit", "sell", 1, 100);
    expect(sell).toMatchObject({ symbol: "BTC/USDT", side: "sell", type: "limit", amount: 1, price: 100 });
    const book = await until(
      () => taker.exchange.fetchOrderBook("BTC/USDT"),
      (b) => b.asks.length > 0,
    );
    expect(book.asks[0]).toEqual([100, 1]);

    const bid = await taker.exchange.createOrder("BTC/USDT", "limit", "buy", 1, 90);
    const bidId = String(bid.id);
    const open = await until(
      () => taker.exchange.fetchOpenOrders("BTC/USDT"),
      (orders) => orders.some((o) => o.id === bid.id),
    );
    expect(open.find((o) => o.id === bid.id)).toMatchObject({ status: "open", price: 90, amount: 1 });
    const fetched = await taker.exchange.fetchOrder(bidId, "BTC/USDT");
    expect(fetched).toMatchObject({ id: bid.id, clientOrderId: bid.clientOrderId, side: "buy" });
    await taker.exchange.cancelOrder(bidId, "BTC/USDT");
    const cancelled = await until(
      () => taker.exchange.fetchOrder(bidId, "BTC/USDT"),
      (o) => o.status === "canceled",
    );
    expect(cancelled.filled).toBe(0);

    const market = await taker.exchange.createOrder("BTC/USDT", "market", "buy", 0.5);
    const marketId = String(market.id);
    const filled = await until(
      () => taker.exchange.fetchOrder(marketId, "BTC/USDT"),
      (o) => o.status === "closed",
    );
    expect(filled).toMatchObject({ filled: 0.5, cost: 50, average: 100 });
    const trades = await taker.exchange.fetchMyTrades("BTC/USDT");
    expect(trades).toHaveLength(1);
    expect(trades[0]).toMatchObject({
      order: market.id,
      side: "buy",
      price: 100,
      amount: 0.5,
      takerOrMaker: "taker",
    });
    expect(trades[0]?.fee).toMatchObject({ currency: "BTC", cost: 0.0005 });

    const after = await taker.exchange.fetchBalance();
    expect(after.BTC?.free).toBe(0.4995);
    expect(after.USDT?.total).toBe(950);
  });

  it("streams the owner's executionReport and outboundAccountPosition to a plain WebSocket on a listen key", async () => {
    const bot = await botFor("500", "0");
    const headers = { "x-mbx-apikey": bot.key.api_key };
    const { listenKey } = (await (
      await fetch(`${base}/api/v3/userDataStream`, { method: "POST", headers })
    ).json()) as {
      listenKey: string;
    };
    expect(listenKey).toMatch(/^[A-Za-z0-9]{60}$/);
    // Another key cannot keep it alive.
    const other = await botFor("0", "0");
    const foreign = await fetch(`${base}/api/v3/userDataStream?listenKey=${listenKey}`, {
      method: "PUT",
      headers: { "x-mbx-apikey": other.key.api_key },
    });
    expect(await foreign.json()).toMatchObject({ code: -1125 });

    const socket = new WebSocket(`${base.replace("http", "ws")}/ws/${listenKey}`);
    const events: { e?: string; [k: string]: unknown }[] = [];
    await new Promise<void>((resolve, reject) => {
      socket.on("message", (raw) => {
        const event = JSON.parse(String(raw));
        events.push(event);
        if (event.result === null) {
          resolve();
        }
      });
      socket.on("error", reject);
    });
    const order = await bot.exchange.createOrder("BTC/USDT", "limit", "buy", 1, 80);
    const report = await until(
      async () => events.find((e) => e.e === "executionReport"),
      (e) => e !== undefined,
    );
    expect(report).toMatchObject({
      s: "BTCUSDT",
      S: "BUY",
      o: "LIMIT",
      X: "NEW",
      i: Number(order.id),
      c: order.clientOrderId,
      p: "80",
      q: "1",
    });
    const position = await until(
      async () => events.find((e) => e.e === "outboundAccountPosition"),
      (e) => e !== undefined,
    );
    expect(position?.B).toContainEqual({ a: "USDT", f: "420", l: "80" });
    socket.close();
    const gone = await fetch(`${base}/api/v3/userDataStream?listenKey=${listenKey}`, {
      method: "DELETE",
      headers,
    });
    expect(gone.status).toBe(200);
  });
});
