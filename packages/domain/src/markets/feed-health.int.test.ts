import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type Db } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { seedDatabase } from "../setup/index.ts";
import { createTestDatabase } from "../test-support/index.ts";
import {
  assertMarketTakesOrders,
  checkSourceHealth,
  clearSourceHealth,
  marketPriceStatus,
  sourceStatuses,
} from "./feed-health.ts";
import { recordRunningFeed } from "./feed-state.ts";
import { SourceHealthTracker } from "./feeds/live.ts";
import type { Tick } from "./feeds/types.ts";

/*
 * Stale sources pause their markets, against the real database: the worker's check records what its
 * tracker saw, and the order paths' gate refuses new orders on a paused source's markets, translated,
 * naming the source and since when; a new price resumes them. Instruments without a live source are
 * view-only for real accounts while a live feed runs, unless the platform is a declared sandbox.
 */
let db: Db;
let teardown: () => Promise<void>;
const START = Date.UTC(2026, 10, 18, 10, 30, 0);
const real = { kind: "real" };
const demo = { kind: "demo" };

beforeAll(async () => {
  const database = await createTestDatabase();
  const conn = createDb(database.url, { max: 3 });
  db = conn.db;
  await seedDatabase(db);
  teardown = async () => {
    await conn.close();
    await database.drop();
  };
}, 120_000);
afterAll(async () => {
  await teardown?.();
});

/** The refusal a promise ends in, as [code, params]. */
async function refusal(promise: Promise<unknown>): Promise<[string, unknown] | null> {
  try {
    await promise;
    return null;
  } catch (error) {
    if (error instanceof AppError) {
      return [error.code, error.params];
    }
    throw error;
  }
}

const tick = (source: string, sourceTime: number, receivedAt: number): Tick => ({
  symbol: "EURUSD",
  price: "1.04899",
  volume: "0",
  time: sourceTime,
  source,
  sourceSymbol: "EURUSD=X",
  sourceTime,
  receivedAt,
});

describe("stale sources pause their markets", () => {
  it("refuses new orders on a stale source's markets, names the source and the time, and resumes", async () => {
    await recordRunningFeed(db, "live", false, new Date(START));
    const tracker = new SourceHealthTracker(["ccxt", "yahoo"], START);
    tracker.sawTick("ccxt", { ...tick("binance", START, START), symbol: "BTCUSDT" });
    tracker.sawTick("yahoo", tick("yahoo", START - 500, START));
    // Within the policy's 60 s: both live, every mapped market takes orders.
    await checkSourceHealth(db, tracker, START + 60_000);
    expect(await refusal(assertMarketTakesOrders(db, "EURUSD", real))).toBeNull();

    // Yahoo answers again and again with the same source time: not a new price, so it goes stale.
    tracker.sawTick("yahoo", tick("yahoo", START - 500, START + 30_000));
    tracker.sawTick("ccxt", { ...tick("binance", START + 50_000, START + 50_000), symbol: "BTCUSDT" });
    await checkSourceHealth(db, tracker, START + 60_001);
    const paused: [string, unknown] = [
      "MARKET_PRICES_PAUSED",
      { source: "yahoo", since: "2026-11-18 10:30:00 UTC" },
    ];
    expect(await refusal(assertMarketTakesOrders(db, "EURUSD", real))).toEqual(paused);
    expect(await refusal(assertMarketTakesOrders(db, "XAUUSD", demo))).toEqual(paused);
    // The other source's markets go on.
    expect(await refusal(assertMarketTakesOrders(db, "BTCUSDT", real))).toBeNull();
    expect((await sourceStatuses(db)).map((s) => [s.source, s.label, s.staleSince])).toEqual([
      ["ccxt", "binance", null],
      ["yahoo", "yahoo", "2026-11-18T10:30:00.000Z"],
    ]);

    // A new price (a newer source time) resumes the source's markets.
    tracker.sawTick("yahoo", tick("yahoo", START + 61_000, START + 61_500));
    await checkSourceHealth(db, tracker, START + 62_000);
    expect(await refusal(assertMarketTakesOrders(db, "EURUSD", real))).toBeNull();
  });

  it("makes a market with no live source view-only for real accounts, unless the platform is a sandbox", async () => {
    await clearSourceHealth(db);
    await recordRunningFeed(db, "live", false, new Date(START));
    expect(await refusal(assertMarketTakesOrders(db, "XMRUSDT", real))).toEqual([
      "MARKET_VIEW_ONLY",
      { symbol: "XMRUSDT" },
    ]);
    expect(await refusal(assertMarketTakesOrders(db, "XMRUSDT", demo))).toBeNull();
    // A feed serving only crypto leaves forex without a live price.
    await recordRunningFeed(db, "ccxt", false, new Date(START));
    expect(await refusal(assertMarketTakesOrders(db, "EURUSD", real))).toEqual([
      "MARKET_VIEW_ONLY",
      { symbol: "EURUSD" },
    ]);
    expect(await refusal(assertMarketTakesOrders(db, "BTCUSDT", real))).toBeNull();
    // A declared sandbox, and a simulator outside production, take orders everywhere.
    await recordRunningFeed(db, "live", true, new Date(START));
    expect(await refusal(assertMarketTakesOrders(db, "XMRUSDT", real))).toBeNull();
    await recordRunningFeed(db, "simulator", false, new Date(START));
    expect(await refusal(assertMarketTakesOrders(db, "XMRUSDT", real))).toBeNull();
  });
});

describe("the source a market's page names", () => {
  it("is the feed that serves it now, never a live mapping the running feed does not use", async () => {
    await recordRunningFeed(db, "simulator", true);
    const simulated = await marketPriceStatus(db, "BTCUSDT");
    // Mapped to ccxt, but the simulator gives its prices: the page must say simulated.
    expect(simulated).toMatchObject({ feedSource: "ccxt", servedBy: "simulator" });

    await recordRunningFeed(db, "live", false);
    expect(await marketPriceStatus(db, "BTCUSDT")).toMatchObject({
      servedBy: "ccxt",
      sourceSymbol: "BTC/USDT",
    });
    expect(await marketPriceStatus(db, "EURUSD")).toMatchObject({
      servedBy: "yahoo",
      sourceSymbol: "EURUSD=X",
    });
    // No live source: nothing serves it, and real accounts only view it.
    expect(await marketPriceStatus(db, "XMRUSDT")).toMatchObject({ servedBy: null, viewOnly: true });

    await recordRunningFeed(db, "ccxt", false);
    expect(await marketPriceStatus(db, "EURUSD")).toMatchObject({ servedBy: null, viewOnly: true });
  });
});
