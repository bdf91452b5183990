import { randomBytes } from "node:crypto";
import { type Candle, type CandlePeriod, channel, periodStart, type Ticker } from "@northstar/shared/markets";
import { MoneyDecimal } from "@northstar/shared/money";
import { sql } from "drizzle-orm";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type Db } from "../db/client.ts";
import { seedDatabase } from "../setup/index.ts";
import { createTestDatabase, testRedisUrl } from "../test-support/index.ts";
import { getCandles } from "./candle-store.ts";
import { aggregateCandles } from "./candles/aggregate.ts";
import { loadCatalogue } from "./catalogue.ts";
import { SimulatorFeed } from "./feeds/simulator.ts";
import { MarketDataService } from "./market-data.ts";
import { readSnapshot, readTickers } from "./realtime.ts";
// Registers spot's source of the platform's own traded volume, as the worker has it loaded.
import "../spot/index.ts";

/*
 * The worker's market data loop against a real PostgreSQL and Redis: history seeded on first start,
 * every period consistent with the 1-minute candles, live ticks turned into stored candles and
 * published state. Time is injected, so minutes close exactly where the test says.
 */
let db: Db;
let redis: Redis;
let teardown: () => Promise<void>;
const prefix = `test:md:${randomBytes(3).toString("hex")}`;
const START = Date.UTC(2026, 10, 18, 10, 30, 20); // a Wednesday, when every market trades
let now = START;
let service: MarketDataService;

beforeAll(async () => {
  const database = await createTestDatabase();
  const conn = createDb(database.url, { max: 5 });
  db = conn.db;
  await seedDatabase(db);
  redis = new Redis(testRedisUrl());
  const feed = new SimulatorFeed({
    seed: 7,
    manual: true,
    clock: () => now,
    history: { minuteHours: 3, hourDays: 3, dayDays: 40 },
  });
  // Depth and trade prints of the feed itself, here even for spot markets (whose books the matcher
  // publishes in production), so the feed's own output is what is checked.
  service = new MarketDataService({
    db,
    redis,
    prefix,
    feed,
    now: () => now,
    flushIntervalMs: 3_600_000,
    ownBook: () => false,
  });
  await service.start();
  await service.historyStored();
  teardown = async () => {
    await service.stop();
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) {
      await redis.del(...keys);
    }
    redis.disconnect();
    await conn.close();
    await database.drop();
  };
}, 120_000);
afterAll(async () => {
  await teardown?.();
});

const eq = (a: Candle[], b: Candle[]) =>
  expect(
    a.map((c) => [c.time, c.open, c.high, c.low, c.close, new MoneyDecimal(c.volume).toFixed()]),
  ).toEqual(b.map((c) => [c.time, c.open, c.high, c.low, c.close, new MoneyDecimal(c.volume).toFixed()]));

describe("market data service", () => {
  it("seeds chart history on first start for every instrument, in every period", async () => {
    const instruments = await loadCatalogue(db);
    expect(instruments.length).toBeGreaterThanOrEqual(80);
    // 10:30 UTC: crypto, forex and gold traded through the last three hours; a US stock did not.
    const expected: [string, CandlePeriod[]][] = [
      ["BTCUSDT", ["1m", "5m", "1h", "1d", "1w", "1M"]],
      ["EURUSD", ["1m", "5m", "1h", "1d", "1w", "1M"]],
      ["XAUUSD", ["1m", "5m", "1h", "1d", "1w", "1M"]],
      ["AAPL", ["1h", "1d", "1w", "1M"]],
    ];
    expect(await getCandles(db, "AAPL", "1m")).toEqual([]);
    for (const [symbol, periods] of expected) {
      for (const period of periods) {
        const candles = await getCandles(db, symbol, period, { limit: 5 });
        expect(candles.length, `${symbol} ${period}`).toBeGreaterThan(0);
      }
    }
  });

  it("stores every longer period as the roll-up of the shorter one", async () => {
    const minutes = await getCandles(db, "BTCUSDT", "1m", { limit: 1000 });
    const hoursFromMinutes = aggregateCandles(minutes, "1h");
    const storedHours = await getCandles(db, "BTCUSDT", "1h", { limit: 1000 });
    // Hours inside the minute section are rolled up from the minutes.
    const firstMinuteHour = periodStart("1h", minutes[0]?.time as number);
    eq(
      storedHours.filter((c) => c.time >= firstMinuteHour),
      hoursFromMinutes,
    );
    const days = await getCandles(db, "BTCUSDT", "1d", { limit: 1000 });
    eq(await getCandles(db, "BTCUSDT", "1w", { limit: 1000 }), aggregateCandles(days, "1w"));
    eq(await getCandles(db, "BTCUSDT", "1M", { limit: 1000 }), aggregateCandles(days, "1M"));
    eq(await getCandles(db, "BTCUSDT", "4h", { limit: 1000 }), aggregateCandles(storedHours, "4h"));
  });

  it("publishes every instrument's ticker, on its tick grid, with the 24-hour change", async () => {
    const tickers = await readTickers(redis, prefix);
    const instruments = await loadCatalogue(db);
    expect(tickers.size).toBe(instruments.length);
    for (const instrument of instruments) {
      const ticker = tickers.get(instrument.symbol) as Ticker;
      expect(new MoneyDecimal(ticker.p).mod(instrument.tickSize).isZero(), instrument.symbol).toBe(true);
      const change = new MoneyDecimal(ticker.p).minus(ticker.o).div(ticker.o).times(100).toFixed(2);
      expect(ticker.c).toBe(change);
    }
  });

  it("turns ticks into a stored 1-minute candle, rolls it up, and publishes candles and trades", async () => {
    const minute = periodStart("1m", now) + 60_000;
    const prices = ["91000.5", "91010", "90990.25", "91005"];
    prices.forEach((price, i) => {
      const time = minute + i * 1000;
      service.onTick({
        symbol: "BTCUSDT",
        price,
        volume: "0.5",
        time,
        source: "binance",
        sourceSymbol: "BTC/USDT",
        sourceTime: time,
        receivedAt: time + 40,
      });
    });
    now = minute + 5000;
    await service.flush();
    const kline = await readSnapshot<Candle>(redis, prefix, channel.kline("BTCUSDT", "1m"));
    expect(kline?.data).toMatchObject({
      time: minute,
      open: "91000.5",
      high: "91010",
      low: "90990.25",
      close: "91005",
    });
    const trades = await readSnapshot<{ p: string }[]>(redis, prefix, channel.trades("BTCUSDT"));
    expect(trades?.data.slice(0, 4).map((t) => t.p)).toEqual([...prices].reverse());

    // The minute closes on the clock; the stored candle and every period containing it follow.
    now = minute + 61_000;
    await service.flush();
    const [stored] = await getCandles(db, "BTCUSDT", "1m", { limit: 1 });
    expect(stored).toMatchObject({
      time: minute,
      open: "91000.5",
      high: "91010",
      low: "90990.25",
      close: "91005",
      volume: "2",
    });
    for (const period of ["5m", "15m", "1h", "4h", "1d", "1w", "1M", "1y"] as CandlePeriod[]) {
      const [latest] = await getCandles(db, "BTCUSDT", period, { limit: 1 });
      expect(latest?.time, period).toBe(periodStart(period, minute));
      expect(latest?.close, period).toBe("91005");
      expect(new MoneyDecimal(latest?.high as string).gte("91010"), period).toBe(true);
    }
    const hour = await getCandles(db, "BTCUSDT", "1h", { limit: 1 });
    const minutesOfHour = (await getCandles(db, "BTCUSDT", "1m", { limit: 120 })).filter(
      (c) => c.time >= periodStart("1h", minute),
    );
    eq(hour, aggregateCandles(minutesOfHour, "1h"));
    const ticker = (await readTickers(redis, prefix)).get("BTCUSDT");
    expect(ticker?.p).toBe("91005");
  });

  it("shows the platform's own 24h volume and turnover, not the feed's: 0 where nothing was traded here", async () => {
    // The feed reported 2 BTC in the test above; nobody traded BTC here.
    const trade = (symbol: string, book: string, quantity: string, price: string, at: number) =>
      db.execute(sql`
        insert into spot_trades (symbol, book, price, quantity, quote_qty, taker_side, maker_fee, taker_fee, created_at)
        values (${symbol}, ${book}, ${price}, ${quantity}, ${new MoneyDecimal(quantity).times(price).toFixed()},
                'buy', 0, 0, ${new Date(at).toISOString()}::timestamptz)`);
    await trade("ETHUSDT", "real", "1", "3000", now - 1000);
    await trade("ETHUSDT", "real", "0.5", "3060.5", now - 23 * 3600_000);
    await trade("ETHUSDT", "demo", "7", "3000", now - 1000); // play money is not volume
    await trade("ETHUSDT", "real", "9", "3000", now - 24 * 3600_000 - 1); // outside the 24 hours
    now += 6000;
    await service.flush();
    const tickers = await readTickers(redis, prefix);
    expect(tickers.get("ETHUSDT")).toMatchObject({ v: "1.5", q: "4530.25" });
    expect(tickers.get("BTCUSDT")).toMatchObject({ v: "0", q: "0" });
    for (const ticker of tickers.values()) {
      if (ticker.s !== "ETHUSDT") {
        expect([ticker.s, ticker.v, ticker.q]).toEqual([ticker.s, "0", "0"]);
      }
    }
    await db.execute(sql`delete from spot_trades`);
  });

  it("after a restart, keeps the stored history and continues from the last price", async () => {
    await service.stop();
    const count = async () =>
      Number((await db.execute<{ n: number }>(sql`select count(*)::int as n from candles`)).rows[0]?.n);
    const before = await count();
    const [lastMinute] = await getCandles(db, "ETHUSDT", "1m", { limit: 1 });
    now += 60_000;
    const feed = new SimulatorFeed({ seed: 7, manual: true, clock: () => now });
    // Depth and trade prints of the feed itself, here even for spot markets (whose books the matcher
    // publishes in production), so the feed's own output is what is checked.
    service = new MarketDataService({
      db,
      redis,
      prefix,
      feed,
      now: () => now,
      flushIntervalMs: 3_600_000,
      ownBook: () => false,
    });
    await service.start();
    await service.historyStored();
    // Nothing was seeded again, and the simulator walks on from the stored close.
    expect(await count()).toBe(before);
    const [tick] = feed.step(now + 1000).filter((t) => t.symbol === "ETHUSDT");
    const move = new MoneyDecimal(tick?.price as string).minus(lastMinute?.close as string).abs();
    expect(move.div(lastMinute?.close as string).lt("0.01")).toBe(true);
  });
});
