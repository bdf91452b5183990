import { ChannelPublisher } from "@northstar/domain/markets";
import { SpotMatcher } from "@northstar/domain/spot";
import ccxt from "ccxt";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { testRedisUrl } from "../../../../packages/domain/src/test-support/index.ts";
import { createHarness, type Harness } from "../test/harness.ts";
import { dataOf, grant, setTradePassword, userIdOf } from "../test/money.ts";

/**
 * The public market streams in Binance's format, read with a plain `ws` client and with ccxt.pro's
 * own `binance` class. Depth and trades come from the real matcher; candles and tickers from the
 * publisher the feed uses (the same Redis channels the platform's market socket serves).
 */
let h: Harness;
let matcher: SpotMatcher;
let publisher: ChannelPublisher;
let redis: Redis;
let base = "";
let wsBase = "";
beforeAll(async () => {
  h = await createHarness();
  redis = new Redis(testRedisUrl());
  matcher = new SpotMatcher({
    db: h.db,
    redis: new Redis(testRedisUrl()),
    prefix: h.redisPrefix,
    blockMs: 10,
  });
  await matcher.start();
  publisher = new ChannelPublisher(redis, h.redisPrefix);
  await h.app.listen({ port: 0, host: "127.0.0.1" });
  const address = h.app.server.address();
  base = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  wsBase = base.replace("http", "ws");
});
afterAll(async () => {
  await matcher?.stop();
  redis?.disconnect();
  await h?.close();
});

/** A socket that records every message; `next` waits for the first one that `match` accepts. */
async function open(path: string) {
  const socket = new WebSocket(`${wsBase}${path}`);
  const messages: Record<string, unknown>[] = [];
  const waiters: {
    match: (m: Record<string, unknown>) => boolean;
    resolve: (m: Record<string, unknown>) => void;
  }[] = [];
  socket.on("message", (raw) => {
    const message = JSON.parse(String(raw)) as Record<string, unknown>;
    messages.push(message);
    for (const waiter of [...waiters]) {
      if (waiter.match(message)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(message);
      }
    }
  });
  await new Promise<void>((resolve, reject) => {
    socket.once("open", () => resolve());
    socket.once("error", reject);
  });
  const next = (match: (m: Record<string, unknown>) => boolean) => {
    const seen = messages.find(match);
    if (seen) {
      messages.splice(messages.indexOf(seen), 1);
      return Promise.resolve(seen);
    }
    return new Promise<Record<string, unknown>>((resolve) => {
      waiters.push({
        match,
        resolve: (m) => {
          messages.splice(messages.indexOf(m), 1);
          resolve(m);
        },
      });
    });
  };
  const request = (body: object) => socket.send(JSON.stringify(body));
  return { socket, messages, next, request };
}

async function trader(usdt: string, btc: string) {
  const u = await h.registerByEmail();
  await setTradePassword(h, u);
  const userId = await userIdOf(h, u.token);
  if (usdt !== "0") {
    await grant(h, userId, usdt, "USDT");
  }
  if (btc !== "0") {
    await grant(h, userId, btc, "BTC");
  }
  const key = dataOf<{ api_key: string; secret: string }>(
    await h.trpc("apiKeys.create", { label: "streams", spot_trade: true, trade_password: "123456" }, u.token),
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
  return exchange;
}

describe("public market streams", () => {
  it("sends the matcher's trades, book diffs, partial book and best prices on /ws and /stream", async () => {
    const raw = await open("/ws/btcusdt@trade");
    const aggregated = await open("/ws/btcusdt@aggTrade");
    const combined = await open("/stream?streams=btcusdt@depth/btcusdt@depth5@100ms/btcusdt@bookTicker");
    const maker = await trader("0", "3");
    const taker = await trader("1000", "0");

    await maker.createOrder("BTC/USDT", "limit", "sell", 1, 101);
    const diff = await combined.next(
      (m) => m.stream === "btcusdt@depth" && ((m.data as { a: unknown[] }).a ?? []).length > 0,
    );
    expect(diff.data).toMatchObject({ e: "depthUpdate", s: "BTCUSDT", a: [["101", "1"]], b: [] });
    const first = diff.data as { U: number; u: number };
    expect(first.u).toBeGreaterThanOrEqual(first.U);

    await maker.createOrder("BTC/USDT", "limit", "sell", 2, 100);
    const second = await combined.next(
      (m) =>
        m.stream === "btcusdt@depth" &&
        JSON.stringify((m.data as { a: unknown[] }).a) === JSON.stringify([["100", "2"]]),
    );
    // Each event starts right after the one before: a client can check it missed nothing.
    expect((second.data as { U: number }).U).toBe(first.u + 1);
    const partial = await combined.next(
      (m) => m.stream === "btcusdt@depth5@100ms" && (m.data as { asks: unknown[] }).asks.length === 2,
    );
    expect(partial.data).toEqual({
      lastUpdateId: (second.data as { u: number }).u,
      bids: [],
      asks: [
        ["100", "2"],
        ["101", "1"],
      ],
    });
    const top = await combined.next(
      (m) => m.stream === "btcusdt@bookTicker" && (m.data as { a: string }).a === "100",
    );
    expect(top.data).toEqual({
      u: (second.data as { u: number }).u,
      s: "BTCUSDT",
      b: "0",
      B: "0",
      a: "100",
      A: "2",
    });

    // A taker buys through the best level: one trade print, the level gone from the book (quantity 0).
    await taker.createOrder("BTC/USDT", "market", "buy", 2);
    const trade = await raw.next((m) => m.e === "trade");
    expect(trade).toMatchObject({ e: "trade", s: "BTCUSDT", p: "100", q: "2", m: false, M: true });
    expect(typeof trade.t).toBe("number");
    // The same fill as an aggregate of one trade.
    const aggregate = await aggregated.next((m) => m.e === "aggTrade");
    expect(aggregate).toMatchObject({ s: "BTCUSDT", a: trade.t, f: trade.t, l: trade.t, p: "100", q: "2" });
    expect(aggregate).toMatchObject({ T: trade.T, m: false, M: true });
    aggregated.socket.close();
    const taken = await combined.next(
      (m) =>
        m.stream === "btcusdt@depth" &&
        JSON.stringify((m.data as { a: unknown[] }).a) === JSON.stringify([["100", "0"]]),
    );
    expect(taken.data).toMatchObject({ s: "BTCUSDT" });

    // What the REST book says agrees with the last diff's update id.
    const book = (await (await fetch(`${base}/api/v3/depth?symbol=BTCUSDT`)).json()) as {
      lastUpdateId: number;
      asks: unknown[];
    };
    expect(book.asks).toEqual([["101", "1"]]);
    expect(book.lastUpdateId).toBe((taken.data as { u: number }).u);
    raw.socket.close();
    combined.socket.close();
  });

  it("sends candles, closing the previous one when the next starts, and 24-hour tickers", async () => {
    const client = await open("/stream?streams=btcusdt@kline_1m/btcusdt@ticker/btcusdt@miniTicker");
    const everyMarket = await open("/ws/!miniTicker@arr");
    const minute = Math.floor(Date.now() / 60_000) * 60_000;
    const candle = { time: minute, open: "100", high: "105", low: "99", close: "104", volume: "2" };
    publisher.publish("kline:BTCUSDT:1m", candle);
    await publisher.flush();
    const forming = await client.next((m) => m.stream === "btcusdt@kline_1m");
    expect(forming.data).toMatchObject({
      e: "kline",
      s: "BTCUSDT",
      k: {
        t: minute,
        T: minute + 59_999,
        s: "BTCUSDT",
        i: "1m",
        o: "100",
        h: "105",
        l: "99",
        c: "104",
        v: "2",
        q: "208",
        x: false,
      },
    });
    publisher.publish("kline:BTCUSDT:1m", { ...candle, time: minute + 60_000, open: "104", volume: "1" });
    await publisher.flush();
    const closed = await client.next((m) => m.stream === "btcusdt@kline_1m");
    expect(closed.data).toMatchObject({ k: { t: minute, c: "104", x: true } });
    const next = await client.next((m) => m.stream === "btcusdt@kline_1m");
    expect(next.data).toMatchObject({ k: { t: minute + 60_000, o: "104", x: false } });

    // A fresh time: the platform reads its market prices from this channel too.
    const at = Date.now();
    const tickers = [
      {
        s: "ETHUSDT",
        p: "3000",
        o: "2900",
        h: "3100",
        l: "2800",
        v: "10",
        q: "30000",
        c: "3.45",
        t: at,
        x: true,
      },
      { s: "BTCUSDT", p: "104", o: "100", h: "105", l: "95", v: "4", q: "400", c: "4.00", t: at, x: true },
      { s: "EURUSD", p: "1.1", o: "1.09", h: "1.11", l: "1.08", v: "0", q: "0", c: "0.92", t: at, x: true },
    ];
    publisher.publish("tickers", tickers);
    await publisher.flush();
    // What both BTC tickers show of the feed's: last, open, high, low and the two volumes.
    const figures = { c: "104", o: "100", h: "105", l: "95", v: "4", q: "400" };
    const ticker = await client.next((m) => m.stream === "btcusdt@ticker");
    expect(ticker.data).toMatchObject({
      e: "24hrTicker",
      s: "BTCUSDT",
      p: "4",
      P: "4.00",
      w: "100.00000000",
      ...figures,
      C: at,
    });
    const mini = await client.next((m) => m.stream === "btcusdt@miniTicker");
    expect(mini.data).toEqual({
      e: "24hrMiniTicker",
      E: (mini.data as { E: number }).E,
      s: "BTCUSDT",
      ...figures,
    });
    // Only this symbol's ticker: the ETH one is not sent.
    expect(client.messages.filter((m) => m.stream === "btcusdt@ticker")).toHaveLength(0);
    expect(client.messages.filter((m) => m.stream === "btcusdt@miniTicker")).toHaveLength(0);
    // Every spot market's in one array; an instrument without a spot market (EURUSD) is left out.
    const all = (await everyMarket.next((m) => Array.isArray(m))) as unknown as {
      e: string;
      s: string;
      c: string;
    }[];
    expect(all.map(({ e, s, c }) => ({ e, s, c }))).toEqual([
      { e: "24hrMiniTicker", s: "ETHUSDT", c: "3000" },
      { e: "24hrMiniTicker", s: "BTCUSDT", c: "104" },
    ]);
    everyMarket.socket.close();
    client.socket.close();
  });

  it("answers SUBSCRIBE, UNSUBSCRIBE and LIST_SUBSCRIPTIONS, and refuses bad requests translated, changing nothing", async () => {
    const client = await open("/ws/0?lang=zh");
    client.request({ method: "SUBSCRIBE", params: ["btcusdt@trade", "btcusdt@depth10"], id: 1 });
    expect(await client.next((m) => m.id === 1)).toEqual({ result: null, id: 1 });
    client.request({ method: "LIST_SUBSCRIPTIONS", id: 2 });
    expect(await client.next((m) => m.id === 2)).toEqual({
      result: ["btcusdt@trade", "btcusdt@depth10"],
      id: 2,
    });

    // An unknown symbol among known streams: the whole request is refused, nothing added.
    client.request({ method: "SUBSCRIBE", params: ["btcusdt@bookTicker", "nosuchcoin@trade"], id: 3 });
    const refused = await client.next((m) => m.id === 3);
    expect(refused).toEqual({ error: { code: 2, msg: "未知的数据流：nosuchcoin@trade" }, id: 3 });
    client.request({ method: "SUBSCRIBE", params: ["btcusdt@kline_3m"], id: 4 });
    expect(await client.next((m) => m.id === 4)).toMatchObject({ error: { code: 2 } });
    client.socket.send("not json");
    expect(await client.next((m) => m.id === null)).toMatchObject({
      error: { code: 2, msg: expect.stringContaining("无效请求") },
    });
    client.request({ method: "SUBSCRIBE", params: "btcusdt@trade", id: 5 });
    expect(await client.next((m) => m.id === 5)).toMatchObject({ error: { code: 2 } });
    client.request({
      method: "SUBSCRIBE",
      params: Array.from({ length: 201 }, (_, i) => `btcusdt@depth@${i % 2 ? 100 : 1000}ms`).concat(
        Array.from({ length: 199 }, (_, i) => `btcusdt@kline_${["1m", "5m", "15m", "1h"][i % 4]}`),
      ),
      id: 6,
    });
    // Duplicates count once: 2 + 2 + 4 streams fit; 201 distinct names would not.
    expect(await client.next((m) => m.id === 6)).toEqual({ result: null, id: 6 });
    client.request({ method: "LIST_SUBSCRIPTIONS", id: 7 });
    expect(((await client.next((m) => m.id === 7)).result as string[]).length).toBe(8);

    client.request({ method: "UNSUBSCRIBE", params: ["btcusdt@trade"], id: 8 });
    expect(await client.next((m) => m.id === 8)).toEqual({ result: null, id: 8 });
    client.request({ method: "LIST_SUBSCRIPTIONS", id: 9 });
    const listed = (await client.next((m) => m.id === 9)).result as string[];
    expect(listed).not.toContain("btcusdt@trade");
    expect(listed).toContain("btcusdt@depth10");
    client.socket.close();

    // An unknown stream in the address refuses the connection in Binance's shape.
    const response = await new Promise<number>((resolve) => {
      const socket = new WebSocket(`${wsBase}/ws/nosuchcoin@trade`);
      socket.on("unexpected-response", (_req, res) => resolve(res.statusCode ?? 0));
      socket.on("error", () => {});
    });
    expect(response).toBe(400);
  });

  it("serves ccxt.pro's binance watchTrades, watchOrderBook and watchTickers pointed at the platform", async () => {
    const maker = await trader("0", "3");
    const taker = await trader("1000", "0");
    const pro = new ccxt.pro.binance({
      enableRateLimit: false,
      options: {
        fetchMarkets: { types: ["spot"] },
        fetchMargins: false,
        fetchCurrencies: false,
        defaultType: "spot",
      },
    });
    const urls = pro.urls as unknown as { api: Record<string, unknown> & { ws: Record<string, string> } };
    for (const name of ["public", "private", "v1"]) {
      urls.api[name] = `${base}/api/v3`;
    }
    // ccxt tells a spot address by `/stream` in it (Binance's host is stream.binance.com).
    urls.api.ws.spot = `${wsBase}/stream`;
    try {
      // ccxt opens plain ws:// addresses only with its http agent loaded.
      await pro.loadHttpProxyAgent();
      await pro.loadMarkets();
      await maker.createOrder("BTC/USDT", "limit", "sell", 1, 110);
      // The book as ccxt keeps it, watched until it shows what the matcher did (ccxt may have applied
      // an update before the call that reads it).
      const bookUntil = async (done: (asks: number[][]) => boolean) => {
        let asks = (pro.orderbooks["BTC/USDT"]?.asks ?? []) as number[][];
        while (!done(asks)) {
          asks = (await pro.watchOrderBook("BTC/USDT")).asks as number[][];
        }
        return asks;
      };
      const shown = await bookUntil((asks) => asks.some(([price]) => price === 110));
      expect(shown.find(([price]) => price === 110)).toEqual([110, 1]);
      // Earlier tests of this file may have left a better ask: the taker below takes from the best.
      const [bestPrice = 0, bestQty = 0] = shown[0] ?? [];
      const tradesWatch = pro.watchTrades("BTC/USDT");
      // The taker's order waits for the state in which the platform streams trades to ccxt: the
      // stream server listening on the market's trade channel.
      const channel = `${h.redisPrefix}:md:trades:BTCUSDT`;
      while (Number(((await redis.pubsub("NUMSUB", channel)) as [string, number])[1]) === 0) {
        await new Promise((r) => setImmediate(r));
      }
      // A market order needs a fresh feed price (spot.maxTickAgeMs): the one the ticker test published
      // may be older than that on a busy machine.
      publisher.publish("tickers", [
        {
          s: "BTCUSDT",
          p: "104",
          o: "100",
          h: "105",
          l: "95",
          v: "4",
          q: "400",
          c: "4.00",
          t: Date.now(),
          x: true,
        },
      ]);
      await publisher.flush();
      await taker.createOrder("BTC/USDT", "market", "buy", 0.5);
      const trades = await tradesWatch;
      expect(trades[0]).toMatchObject({ symbol: "BTC/USDT", price: bestPrice, amount: 0.5, side: "buy" });
      const after = await bookUntil((asks) => asks[0]?.[1] !== bestQty);
      expect(after[0]).toEqual([bestPrice, bestQty - 0.5]);

      // watchTickers with symbols asks for `btcusdt@miniTicker`. A ticker stream sends updates only,
      // so the feed's ticker is published again until ccxt has one.
      const tickersWatch = pro.watchTickers(["BTC/USDT"]);
      let watched = false;
      const feed = setInterval(() => {
        publisher.publish("tickers", [
          {
            s: "BTCUSDT",
            p: "106",
            o: "100",
            h: "107",
            l: "95",
            v: "5",
            q: "510",
            c: "6.00",
            t: Date.now(),
            x: true,
          },
        ]);
        void publisher.flush();
      }, 100);
      try {
        const tickers = await tickersWatch;
        expect(tickers["BTC/USDT"]).toMatchObject({
          symbol: "BTC/USDT",
          last: 106,
          open: 100,
          high: 107,
          low: 95,
        });
        expect(tickers["BTC/USDT"]).toMatchObject({ baseVolume: 5, quoteVolume: 510 });
        // Without symbols it asks for every market's: `!miniTicker@arr`.
        const everyTicker = await pro.watchTickers();
        expect(everyTicker["BTC/USDT"]).toMatchObject({ last: 106 });
        watched = true;
      } finally {
        clearInterval(feed);
      }
      expect(watched).toBe(true);
    } finally {
      await pro.close();
    }
  });
});
