import { randomBytes } from "node:crypto";
import type { TPlaceOrderRequest } from "@northstar/shared/contracts/spot";
import type { InstrumentInput } from "@northstar/shared/markets";
import { channel, type Depth, type Ticker } from "@northstar/shared/markets";
import { sql } from "drizzle-orm";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type Db } from "../db/client.ts";
import { AppError } from "../errors.ts";
import type { User } from "../identity/index.ts";
import { reconcileLedger } from "../ledger/index.ts";
import {
  clearSourceHealth,
  getInstrument,
  readSnapshot,
  recordRunningFeed,
  recordSourceHealth,
  saveInstrument,
  setInstrumentEnabled,
  snapshotKey,
} from "../markets/index.ts";
import { setPolicy } from "../policy/index.ts";
import { seedDatabase } from "../setup/index.ts";
import { createTestDatabase, testRedisUrl } from "../test-support/index.ts";
// Through the module's face, as the apps use it: it registers the catalogue's open-orders check.
import {
  bestAskKey,
  cancelOrder,
  commandStream,
  getSpotTerms,
  listFills,
  listOrders,
  MarketMaker,
  placeOrder,
  type SpotDeps,
  SpotMatcher,
  sendCommand,
  spotOrders,
} from "./index.ts";
import { OrderIntake } from "./order-intake.ts";
import { balanceOf, createTrader, orderRow, settled, waitUntil } from "./testing.ts";
import { checkSpotLedger, createTraders, runWorkload } from "./workload.ts";

let db: Db;
let redis: Redis;
let deps: SpotDeps;
let matcher: SpotMatcher;
let teardown: () => Promise<void>;
let databaseUrl: string;
const prefix = `test:spot:${randomBytes(3).toString("hex")}`;

beforeAll(async () => {
  const database = await createTestDatabase();
  databaseUrl = database.url;
  const conn = createDb(database.url, { max: 10 });
  db = conn.db;
  await seedDatabase(db);
  redis = new Redis(testRedisUrl());
  deps = { db, redis, prefix };
  matcher = new SpotMatcher({
    db,
    redis: new Redis(testRedisUrl()),
    prefix,
    blockMs: 10,
    sweepAfterMs: 500,
    catalogueCheckMs: 200,
  });
  await matcher.start();
  teardown = async () => {
    await matcher.stop();
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) {
      await redis.del(...keys);
    }
    redis.disconnect();
    await conn.close();
    await database.drop();
  };
}, 60_000);
afterAll(async () => {
  await teardown?.();
});

const limit = (
  symbol: string,
  side: "buy" | "sell",
  price: string,
  quantity: string,
): TPlaceOrderRequest => ({
  symbol,
  side,
  type: "limit",
  time_in_force: "gtc",
  price,
  quantity,
});

async function place(user: User, order: TPlaceOrderRequest) {
  const view = await placeOrder(deps, user, order);
  const [row] = await settled(db, [view.id]);
  return row as NonNullable<typeof row>;
}

/**
 * Waits until the terms the order intake reads on `db` (cached for up to a second) show an
 * operator's change, instead of sleeping out the cache.
 */
function termsShow(symbol: string, done: (terms: Awaited<ReturnType<typeof getSpotTerms>>) => boolean) {
  return waitUntil(() => getSpotTerms(db, symbol), done);
}

async function refusal(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) {
      return error.code;
    }
    throw error;
  }
  return "accepted";
}

describe("spot orders through the matcher", () => {
  it("rests a limit buy, fills a crossing sell at the maker's price, charges both fees, and releases on cancel", async () => {
    const buyer = await createTrader(db, { USDT: "10000" });
    const seller = await createTrader(db, { BTC: "1" });
    const bid = await place(buyer, limit("BTCUSDT", "buy", "60000", "0.1"));
    expect(bid.status).toBe("open");
    expect(await balanceOf(db, buyer, "USDT")).toEqual({ available: "4000", held: "6000" });
    const depth = await readSnapshot<Depth>(redis, prefix, channel.depth("BTCUSDT"));
    expect(depth?.data.bids[0]).toEqual(["60000", "0.1"]);

    const ask = await place(seller, limit("BTCUSDT", "sell", "59000", "0.04"));
    expect(ask).toMatchObject({ status: "filled", held: "0.000000000000000000" });
    // Price 60000 (the resting bid's), 0.04 BTC = 2400 USDT; taker 0.1% of 2400, maker 0.1% of 0.04 BTC.
    expect(await balanceOf(db, seller, "USDT")).toEqual({ available: "2397.6", held: "0" });
    expect(await balanceOf(db, seller, "BTC")).toEqual({ available: "0.96", held: "0" });
    expect(await balanceOf(db, buyer, "BTC")).toEqual({ available: "0.03996", held: "0" });
    expect(await balanceOf(db, buyer, "USDT")).toEqual({ available: "4000", held: "3600" });
    const partial = await orderRow(db, bid.id);
    expect(partial).toMatchObject({ status: "partial", held: "3600.000000000000000000" });

    const fills = await listFills(db, buyer.id, { page: 1, pageSize: 10 });
    expect(fills.items[0]).toMatchObject({
      role: "maker",
      side: "buy",
      price: "60000",
      quantity: "0.04",
      fee: "0.00004",
      fee_currency: "BTC",
    });

    await cancelOrder(deps, buyer, bid.id);
    await waitUntil(
      () => orderRow(db, bid.id),
      (r) => r?.status === "cancelled",
    );
    expect(await balanceOf(db, buyer, "USDT")).toEqual({ available: "7600", held: "0" });
    const history = await listOrders(db, buyer.id, { scope: "history", page: 1, pageSize: 10 });
    expect(history.items[0]).toMatchObject({
      id: bid.id,
      status: "cancelled",
      filled_qty: "0.04",
      avg_price: "60000",
    });
    expect(await refusal(cancelOrder(deps, buyer, bid.id))).toBe("ORDER_NOT_OPEN");
    expect(await refusal(cancelOrder(deps, seller, bid.id))).toBe("ORDER_NOT_FOUND");
  });

  it("gives a buy above the best ask the price difference back at once", async () => {
    const maker = await createTrader(db, { ETH: "2" });
    const taker = await createTrader(db, { USDT: "5000" });
    await place(maker, limit("ETHUSDT", "sell", "3000", "1"));
    const order = await place(taker, limit("ETHUSDT", "buy", "3100", "1"));
    expect(order).toMatchObject({ status: "filled", filledQuote: "3000.000000000000000000" });
    expect(await balanceOf(db, taker, "USDT")).toEqual({ available: "2000", held: "0" });
    expect(await balanceOf(db, taker, "ETH")).toEqual({ available: "0.999", held: "0" });
  });

  it("spends at most a market buy's quote amount, releases what is left, and says why it ended", async () => {
    const maker = await createTrader(db, { SOL: "10" });
    const taker = await createTrader(db, { USDT: "1000" });
    await place(maker, limit("SOLUSDT", "sell", "100", "2"));
    await place(maker, limit("SOLUSDT", "sell", "101", "2"));
    const order = await place(taker, {
      symbol: "SOLUSDT",
      side: "buy",
      type: "market",
      time_in_force: "gtc",
      quote_amount: "300.005",
    });
    // 2 SOL at 100 = 200, then 0.99 SOL at 101 = 99.99 (whole lots of 0.001 only); 0.015 unspent.
    // The budget, not the book, ended it: it is filled, and the dust goes back.
    expect(order).toMatchObject({ status: "filled", cancelReason: null, filledQty: "2.990000000000000000" });
    expect(await balanceOf(db, taker, "USDT")).toEqual({ available: "700.01", held: "0" });
    expect(await balanceOf(db, taker, "SOL")).toEqual({ available: "2.98701", held: "0" });
    // A budget larger than the book: it takes the 1.01 SOL left and the rest is cancelled.
    const sweep = await place(taker, {
      symbol: "SOLUSDT",
      side: "buy",
      type: "market",
      time_in_force: "gtc",
      quote_amount: "500",
    });
    expect(sweep).toMatchObject({
      status: "cancelled",
      cancelReason: "market_remainder",
      filledQty: "1.010000000000000000",
    });
    expect(await balanceOf(db, taker, "USDT")).toEqual({ available: "598", held: "0" });
  });

  it("holds a market buy by quantity at the protection price and fills at the book's prices", async () => {
    const maker = await createTrader(db, { ETH: "5" });
    const taker = await createTrader(db, { USDT: "10000" });
    await place(maker, limit("ETHUSDT", "sell", "3200", "0.5"));
    await place(maker, limit("ETHUSDT", "sell", "3400", "1"));
    await waitUntil(
      () => readSnapshot<Depth>(redis, prefix, channel.depth("ETHUSDT")),
      (d) => d?.data.asks[0]?.[0] === "3200",
    );
    const order = await place(taker, {
      symbol: "ETHUSDT",
      side: "buy",
      type: "market",
      time_in_force: "gtc",
      quantity: "1",
    });
    // Protection: 5% above 3200 = 3360; the 3400 level is beyond it, so 0.5 fills and 0.5 is cancelled.
    expect(order).toMatchObject({
      status: "cancelled",
      price: "3360.000000000000000000",
      filledQty: "0.500000000000000000",
    });
    expect(await balanceOf(db, taker, "USDT")).toEqual({ available: "8400", held: "0" });
  });

  it("records simultaneous orders together and refuses exactly those the balance cannot cover", async () => {
    const user = await createTrader(db, { USDT: "1000" });
    const others = await Promise.all(Array.from({ length: 5 }, () => createTrader(db, { USDT: "1000" })));
    const results = await Promise.allSettled([
      ...Array.from({ length: 30 }, () => placeOrder(deps, user, limit("TRXUSDT", "buy", "0.1", "1000"))),
      ...others.map((other) => placeOrder(deps, other, limit("TRXUSDT", "buy", "0.1", "1000"))),
    ]);
    const refused = results.filter((r) => r.status === "rejected").map((r) => (r.reason as AppError).code);
    expect(refused).toEqual(Array.from({ length: 20 }, () => "INSUFFICIENT_BALANCE"));
    expect(await balanceOf(db, user, "USDT")).toEqual({ available: "0", held: "1000" });
    for (const other of others) {
      expect(await balanceOf(db, other, "USDT")).toEqual({ available: "900", held: "100" });
    }
    const accepted = results.flatMap((r) => (r.status === "fulfilled" ? [r.value.id] : []));
    expect(new Set(accepted).size).toBe(15);
    await settled(db, accepted);
  });

  it("lets a user have no more open orders in a market than policy allows, even when they arrive together at two API processes", async () => {
    await setPolicy(db, "spot.maxOpenOrders", 3, "test");
    await termsShow("NEARUSDT", (terms) => terms.maxOpenOrders === 3);
    // A second database handle has an order intake of its own, as a second API process would.
    const second = createDb(databaseUrl, { max: 4 });
    try {
      const user = await createTrader(db, { USDT: "1000" });
      const first = await placeOrder(deps, user, limit("NEARUSDT", "buy", "1", "1"));
      const results = await Promise.allSettled(
        [deps, { ...deps, db: second.db }].flatMap((via) =>
          Array.from({ length: 3 }, () => placeOrder(via, user, limit("NEARUSDT", "buy", "1", "1"))),
        ),
      );
      const refused = results.filter((r) => r.status === "rejected").map((r) => (r.reason as AppError).code);
      expect(refused).toEqual([
        "TOO_MANY_OPEN_ORDERS",
        "TOO_MANY_OPEN_ORDERS",
        "TOO_MANY_OPEN_ORDERS",
        "TOO_MANY_OPEN_ORDERS",
      ]);
      // Only the accepted orders hold funds; another market is not affected.
      expect(await balanceOf(db, user, "USDT")).toEqual({ available: "997", held: "3" });
      expect(await refusal(placeOrder(deps, user, limit("ATOMUSDT", "buy", "1", "1")))).toBe("accepted");
      // A finished order frees its place.
      await cancelOrder(deps, user, first.id);
      await waitUntil(
        () => orderRow(db, first.id),
        (r) => r?.status === "cancelled",
      );
      expect(await refusal(placeOrder(deps, user, limit("NEARUSDT", "buy", "1", "1")))).toBe("accepted");
    } finally {
      await second.close();
      await setPolicy(db, "spot.maxOpenOrders", 200, "test");
      await termsShow("NEARUSDT", (terms) => terms.maxOpenOrders === 200);
    }
  });

  it("counts a user's very first orders in a market exactly when two API processes take them at once", async () => {
    await setPolicy(db, "spot.maxOpenOrders", 1, "test");
    await termsShow("ICPUSDT", (terms) => terms.maxOpenOrders === 1);
    const second = createDb(databaseUrl, { max: 4 });
    const newcomer = await createTrader(db, { USDT: "1000" });
    // Another transaction is creating the user's count row and has not committed: both processes'
    // batches must wait for it and then count from what it committed, never both from zero.
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let created = () => {};
    const rowWritten = new Promise<void>((resolve) => {
      created = resolve;
    });
    const holder = db.transaction(async (tx) => {
      await tx.execute(
        sql`insert into spot_open_order_counts (user_id, symbol, open) values (${newcomer.id}, 'ICPUSDT', 0)`,
      );
      created();
      await gate;
    });
    try {
      await rowWritten;
      const orders = Promise.allSettled(
        [deps, { ...deps, db: second.db }].flatMap((via) =>
          Array.from({ length: 3 }, () => placeOrder(via, newcomer, limit("ICPUSDT", "buy", "1", "1"))),
        ),
      );
      // Both batches are waiting on the uncommitted row.
      await waitUntil(
        async () =>
          Number(
            (
              await db.execute<{ n: number }>(
                sql`select count(*)::int as n from pg_stat_activity
                    where datname = current_database() and wait_event_type = 'Lock'`,
              )
            ).rows[0]?.n,
          ),
        (n) => n >= 2,
      );
      release();
      await holder;
      const results = await orders;
      expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
      expect(
        new Set(results.flatMap((r) => (r.status === "rejected" ? [(r.reason as AppError).code] : []))),
      ).toEqual(new Set(["TOO_MANY_OPEN_ORDERS"]));
      expect(await balanceOf(db, newcomer, "USDT")).toEqual({ available: "999", held: "1" });
    } finally {
      release();
      await holder.catch(() => {});
      await second.close();
      await setPolicy(db, "spot.maxOpenOrders", 200, "test");
      await termsShow("ICPUSDT", (terms) => terms.maxOpenOrders === 200);
    }
  });

  it("writes batches side by side and keeps each user's open-order limit and balance exact", async () => {
    // An intake of its own: the first orders submitted together go as batches in flight at once,
    // the rest in the batches after them; all contend for the same users' locks and balances.
    const intake = new OrderIntake(db, redis, prefix);
    const short = await createTrader(db, { USDT: "0.003" });
    const limited = await createTrader(db, { USDT: "100" });
    const order = (user: User) => ({
      userId: user.id,
      book: "real" as const,
      symbol: "BTCUSDT",
      base: "BTC",
      quote: "USDT",
      side: "buy" as const,
      type: "limit" as const,
      timeInForce: "gtc" as const,
      price: "1",
      quantity: "0.001",
      quoteAmount: null,
      feeCurrency: "BTC",
      holdCurrency: "USDT",
      held: "0.001",
    });
    const results = await Promise.allSettled(
      Array.from({ length: 40 }, (_, i) =>
        i % 2 === 0 ? intake.submit(order(short), 10) : intake.submit(order(limited), 5),
      ),
    );
    const outcome = (parity: number) => {
      const counts: Record<string, number> = {};
      results.forEach((r, i) => {
        if (i % 2 === parity) {
          const code = r.status === "fulfilled" ? "accepted" : (r.reason as AppError).code;
          counts[code] = (counts[code] ?? 0) + 1;
        }
      });
      return counts;
    };
    // The balance covers three orders of the first user, the limit five of the second.
    expect(outcome(0)).toEqual({ accepted: 3, INSUFFICIENT_BALANCE: 17 });
    expect(outcome(1)).toEqual({ accepted: 5, TOO_MANY_OPEN_ORDERS: 15 });
    expect(await balanceOf(db, short, "USDT")).toEqual({ available: "0", held: "0.003" });
    expect(await balanceOf(db, limited, "USDT")).toEqual({ available: "99.995", held: "0.005" });
    const ids = results.flatMap((r) => (r.status === "fulfilled" ? [r.value.id] : []));
    expect(new Set(ids).size).toBe(8);
    const rows = await settled(db, ids);
    expect(rows.map((r) => r?.status)).toEqual(Array.from({ length: 8 }, () => "open"));
  });

  it("refuses bad orders with a code naming the problem, holding nothing", async () => {
    const user = await createTrader(db, { USDT: "100", BTC: "0.001" });
    expect(await refusal(placeOrder(deps, user, limit("BTCUSDT", "buy", "60000.005", "0.001")))).toBe(
      "PRICE_OFF_TICK",
    );
    expect(await refusal(placeOrder(deps, user, limit("BTCUSDT", "buy", "60000", "0.000015")))).toBe(
      "QUANTITY_OFF_LOT",
    );
    expect(await refusal(placeOrder(deps, user, limit("BTCUSDT", "buy", "60000", "1")))).toBe(
      "INSUFFICIENT_BALANCE",
    );
    expect(await refusal(placeOrder(deps, user, limit("BTCUSDT", "sell", "60000", "0.01")))).toBe(
      "INSUFFICIENT_BALANCE",
    );
    expect(await refusal(placeOrder(deps, user, limit("EURUSD", "buy", "1", "1")))).toBe(
      "SPOT_NOT_AVAILABLE",
    );
    expect(await refusal(placeOrder(deps, user, limit("NOPEUSDT", "buy", "1", "1")))).toBe(
      "INSTRUMENT_NOT_FOUND",
    );
    expect(
      await refusal(
        placeOrder(deps, user, {
          symbol: "SOLUSDT",
          side: "buy",
          type: "market",
          time_in_force: "gtc",
          quote_amount: "0.000001",
        }),
      ),
    ).toBe("QUANTITY_BELOW_MINIMUM");
    expect(await refusal(cancelOrder(deps, user, 987654321))).toBe("ORDER_NOT_FOUND");
    expect(await balanceOf(db, user, "USDT")).toEqual({ available: "100", held: "0" });
    expect(await balanceOf(db, user, "BTC")).toEqual({ available: "0.001", held: "0" });
    expect((await listOrders(db, user.id, { scope: "open", page: 1, pageSize: 10 })).total).toBe(0);
  });

  it("a stale feed pauses its market's market orders and says why; limit orders still rest on the book", async () => {
    const user = await createTrader(db, { USDT: "1000", DOT: "10" });
    const at = new Date(Date.UTC(2026, 0, 7, 15, 0, 0));
    const clocked = { ...deps, now: () => at };
    /** The feed's tickers snapshot, as the worker publishes it, with DOTUSDT's last price `ageMs` old. */
    const feedTicker = (ageMs: number) =>
      redis.set(
        snapshotKey(prefix, "tickers"),
        JSON.stringify({
          ch: "tickers",
          seq: 1,
          ts: at.getTime(),
          data: [{ s: "DOTUSDT", p: "2.5", o: "2.5", h: "2.5", l: "2.5", v: "0", q: "0", c: "0" }].map(
            (t) => ({ ...t, t: at.getTime() - ageMs, x: true }),
          ),
        }),
      );
    const market = (side: "buy" | "sell") =>
      placeOrder(clocked, user, {
        symbol: "DOTUSDT",
        side,
        type: "market",
        time_in_force: "gtc",
        quantity: "1",
      });
    try {
      // The policy's 5 s have passed without a price: the market takes no market order, either side.
      await feedTicker(5001);
      for (const side of ["buy", "sell"] as const) {
        const error = await market(side).then(
          () => null,
          (e: unknown) => e,
        );
        expect(error).toBeInstanceOf(AppError);
        expect([(error as AppError).code, (error as AppError).params]).toEqual([
          "MARKET_PRICE_STALE",
          { seconds: 5 },
        ]);
      }
      expect(await balanceOf(db, user, "USDT")).toEqual({ available: "1000", held: "0" });
      expect(await balanceOf(db, user, "DOT")).toEqual({ available: "10", held: "0" });
      // A fresh price: the order goes on to the book (empty here, so no liquidity, not a stale price).
      await feedTicker(4000);
      expect(await refusal(market("buy"))).toBe("NO_LIQUIDITY");
    } finally {
      await redis.del(snapshotKey(prefix, "tickers"));
    }
  });

  it("takes no order on a market whose live source is stale, holds nothing, and resumes with its prices", async () => {
    const user = await createTrader(db, { USDT: "1000", XMR: "1" });
    const demoUser = await createTrader(db, { USDT: "1000" }, "demo");
    const since = Date.parse("2026-11-18T10:30:00Z");
    const buy = (who: User, symbol: string) => placeOrder(deps, who, limit(symbol, "buy", "1", "1"));
    const refused = async (promise: Promise<unknown>) =>
      promise.then(
        () => null,
        (e: unknown) => (e instanceof AppError ? [e.code, e.params] : Promise.reject(e)),
      );
    try {
      await recordRunningFeed(db, "live", false);
      await recordSourceHealth(db, [
        { source: "ccxt", label: "binance", staleSince: since, lastSourceTime: since, lastError: "timeout" },
      ]);
      // A limit order too: the market takes no new order while its source gives no new price.
      expect(await refused(buy(user, "BTCUSDT"))).toEqual([
        "MARKET_PRICES_PAUSED",
        { source: "binance", since: "2026-11-18 10:30:00 UTC" },
      ]);
      // A market the live feed gives no price is view-only for a real account; a demo account trades it.
      expect(await refused(buy(user, "XMRUSDT"))).toEqual(["MARKET_VIEW_ONLY", { symbol: "XMRUSDT" }]);
      expect(await refused(buy(demoUser, "XMRUSDT"))).toBeNull();
      expect(await balanceOf(db, user, "USDT")).toEqual({ available: "1000", held: "0" });

      // A new price: the source is live again and the market takes the order.
      await recordSourceHealth(db, [
        {
          source: "ccxt",
          label: "binance",
          staleSince: null,
          lastSourceTime: since + 90_000,
          lastError: null,
        },
      ]);
      expect(await refused(buy(user, "BTCUSDT"))).toBeNull();
    } finally {
      await clearSourceHealth(db);
      await recordRunningFeed(db, "simulator", false);
    }
  });

  it("answers a resent order with its first even once its market refuses new orders", async () => {
    const user = await createTrader(db, { USDT: "1000" });
    const order = limit("BTCUSDT", "buy", "1", "1");
    const key = { clientKey: `k-${randomBytes(4).toString("hex")}`, requestHash: "h1" };
    const first = await placeOrder(deps, user, order, key);
    try {
      await recordRunningFeed(db, "live", false);
      await recordSourceHealth(db, [
        { source: "ccxt", label: "binance", staleSince: Date.now(), lastSourceTime: null, lastError: "x" },
      ]);
      // The market is paused now: a new order is refused, the resend answers its first order.
      await expect(placeOrder(deps, user, order)).rejects.toMatchObject({ code: "MARKET_PRICES_PAUSED" });
      expect((await placeOrder(deps, user, order, key)).id).toBe(first.id);
      // The same key with another request is refused as reused, not as paused.
      await expect(
        placeOrder(deps, user, limit("BTCUSDT", "buy", "2", "1"), { ...key, requestHash: "h2" }),
      ).rejects.toMatchObject({ code: "IDEMPOTENCY_KEY_REUSED" });
    } finally {
      await clearSourceHealth(db);
      await recordRunningFeed(db, "simulator", false);
    }
    // Held once, for the first order alone.
    expect(await balanceOf(db, user, "USDT")).toEqual({ available: "999", held: "1" });
  });

  it("rejects a post-only order that would trade, and releases its hold", async () => {
    const maker = await createTrader(db, { BNB: "1" });
    const user = await createTrader(db, { USDT: "1000" });
    await place(maker, limit("BNBUSDT", "sell", "600", "1"));
    const order = await place(user, { ...limit("BNBUSDT", "buy", "600", "1"), time_in_force: "post_only" });
    expect(order).toMatchObject({
      status: "rejected",
      cancelReason: "would_take",
      held: "0.000000000000000000",
    });
    expect(await balanceOf(db, user, "USDT")).toEqual({ available: "1000", held: "0" });
  });

  it("cancels a user's older resting order instead of trading with it (self-trade prevention)", async () => {
    const user = await createTrader(db, { USDT: "1000", XRP: "100" });
    const resting = await place(user, limit("XRPUSDT", "sell", "0.6", "100"));
    const crossing = await place(user, limit("XRPUSDT", "buy", "0.6", "100"));
    expect((await orderRow(db, resting.id))?.status).toBe("cancelled");
    expect((await orderRow(db, resting.id))?.cancelReason).toBe("self_trade");
    expect(crossing.status).toBe("open");
    expect(await balanceOf(db, user, "XRP")).toEqual({ available: "100", held: "0" });
  });

  it("takes up a spot market added while it runs, refuses a new grid while orders rest, and still cancels in a disabled market", async () => {
    const listing = {
      symbol: "ZZTUSDT",
      name: "Test listing",
      category: "crypto",
      base: "ZZT",
      quote: "USDT",
      tickSize: "0.01",
      lotSize: "0.1",
      minQty: "0.1",
      contractSize: "1",
      maxLeverage: 5,
      displayDecimals: 2,
      kinds: ["spot"],
      tradingHours: { timeZone: "UTC", sessions: [] },
      referencePrice: "1",
      volatility: "0.5",
      sort: 9999,
      enabled: true,
    } satisfies InstrumentInput;
    await saveInstrument(db, listing, "test");
    const seller = await createTrader(db, { ZZT: "10" });
    const buyer = await createTrader(db, { USDT: "100" });
    // Accepted at once (the terms are read per order); matched once the matcher has read the catalogue.
    const ask = await place(seller, limit("ZZTUSDT", "sell", "1.5", "10"));
    expect(ask.status).toBe("open");
    const bid = await place(buyer, limit("ZZTUSDT", "buy", "1.5", "4"));
    expect(bid.status).toBe("filled");
    expect(await balanceOf(db, buyer, "ZZT")).toEqual({ available: "3.996", held: "0" });

    expect(await refusal(saveInstrument(db, { ...listing, tickSize: "0.001" }, "test"))).toBe(
      "INSTRUMENT_HAS_OPEN_ORDERS",
    );
    expect((await getInstrument(db, "ZZTUSDT")).tickSize).toBe("0.01");

    await setInstrumentEnabled(db, "ZZTUSDT", false, "test");
    await waitUntil(
      () => refusal(getSpotTerms(db, "ZZTUSDT")),
      (outcome) => outcome === "SPOT_NOT_AVAILABLE",
    );
    expect(await refusal(placeOrder(deps, buyer, limit("ZZTUSDT", "buy", "1.5", "1")))).toBe(
      "SPOT_NOT_AVAILABLE",
    );
    await cancelOrder(deps, seller, ask.id);
    await waitUntil(
      () => orderRow(db, ask.id),
      (r) => r?.status === "cancelled",
    );
    expect(await balanceOf(db, seller, "ZZT")).toEqual({ available: "6", held: "0" });
  });

  it("keeps each price level's queue through a restart, even when orders reached it out of id order", async () => {
    const [first, second, buyer] = await Promise.all([
      createTrader(db, { XLM: "100" }),
      createTrader(db, { XLM: "100" }),
      createTrader(db, { USDT: "100" }),
    ]);
    await matcher.stop();
    const lower = await placeOrder(deps, first, limit("XLMUSDT", "sell", "0.25", "100"));
    const higher = await placeOrder(deps, second, limit("XLMUSDT", "sell", "0.25", "100"));
    // As with two API processes: the higher id's command reaches the stream first.
    await redis.del(commandStream(prefix, "XLMUSDT"));
    await sendCommand(redis, prefix, "XLMUSDT", { t: "place", id: higher.id });
    await sendCommand(redis, prefix, "XLMUSDT", { t: "place", id: lower.id });
    const restart = async () => {
      await matcher.stop();
      matcher = new SpotMatcher({ db, redis: new Redis(testRedisUrl()), prefix, blockMs: 10 });
      await matcher.start();
    };
    await restart();
    await settled(db, [lower.id, higher.id]);
    // The books are rebuilt from the rows: the queue must be the one the first matcher built.
    await restart();
    await place(buyer, limit("XLMUSDT", "buy", "0.25", "100"));
    expect((await orderRow(db, higher.id))?.status).toBe("filled");
    expect((await orderRow(db, lower.id))?.status).toBe("open");
  });

  it("takes a pending order whose command never arrived, and cancels one cancelled before the matcher saw it", async () => {
    const user = await createTrader(db, { USDT: "1000" });
    await matcher.stop();
    const lost = await placeOrder(deps, user, limit("ADAUSDT", "buy", "0.4", "100"));
    const early = await placeOrder(deps, user, limit("ADAUSDT", "buy", "0.3", "100"));
    await cancelOrder(deps, user, early.id);
    // Only the cancel and the second order's command survive: the first command is lost.
    const entries = (await redis.xrange(commandStream(prefix, "ADAUSDT"), "-", "+")) as [string, string[]][];
    await redis.xdel(commandStream(prefix, "ADAUSDT"), entries[0]?.[0] ?? "0-0");
    matcher = new SpotMatcher({
      db,
      redis: new Redis(testRedisUrl()),
      prefix,
      blockMs: 10,
      sweepAfterMs: 300,
    });
    await matcher.start();
    const [first, second] = await settled(db, [lost.id, early.id]);
    expect(first).toMatchObject({ status: "open", cancelReason: null });
    expect(second).toMatchObject({ status: "cancelled", cancelReason: "user" });
    expect(await balanceOf(db, user, "USDT")).toEqual({ available: "960", held: "40" });
    expect((await reconcileLedger(db)).ok).toBe(true);
  });

  it("fills against the market maker's ladder through its system account, and restores what is left of it after a restart", async () => {
    // LTC: tick 0.01, lot 0.001. The ladder's first ask is 80.00 for 2 LTC, then 80.10 for 2.
    await sendCommand(redis, prefix, "LTCUSDT", {
      t: "quote",
      book: "real",
      tick: "0.01",
      lot: "0.001",
      bids: [[7990, 2000]],
      asks: [
        [8000, 2000],
        [8010, 2000],
      ],
    });
    const depth = () => readSnapshot<Depth>(redis, prefix, channel.depth("LTCUSDT"));
    await waitUntil(depth, (d) => d?.data.asks.length === 2);
    const buyer = await createTrader(db, { USDT: "1000" });
    const order = await place(buyer, {
      symbol: "LTCUSDT",
      side: "buy",
      type: "market",
      time_in_force: "gtc",
      quantity: "3",
    });
    // 2 at 80 + 1 at 80.1 = 240.1; the market maker pays no fee, the buyer 0.1% of 3 LTC.
    expect(order).toMatchObject({ status: "filled", filledQuote: "240.100000000000000000" });
    expect(await balanceOf(db, buyer, "LTC")).toEqual({ available: "2.997", held: "0" });
    const mm = await db.execute<{ currency: string; balance: string }>(
      sql`select currency, balance::text from ledger_accounts where system_code = 'market_maker' and book = 'real' and currency in ('LTC', 'USDT') order by currency`,
    );
    expect(mm.rows.map((r) => [r.currency, Number(r.balance)])).toEqual([
      ["LTC", -3],
      ["USDT", 240.1],
    ]);

    await matcher.stop();
    await redis.del(`${prefix}:md:snap:depth:LTCUSDT`);
    matcher = new SpotMatcher({ db, redis: new Redis(testRedisUrl()), prefix, blockMs: 10 });
    await matcher.start();
    // The ladder is back as it was left: the 3 LTC bought before the restart are not offered again.
    const restored = await waitUntil(depth, (d) => (d?.data.asks.length ?? 0) > 0);
    expect(restored?.data).toEqual({
      bids: [["79.9", "2"]],
      asks: [["80.1", "1"]],
    });
  });

  it("drops a market maker's ladder drawn on another grid than the market's", async () => {
    // UNI: tick 0.001, lot 0.01.
    const ladder = (tick: string, asks: [number, number][]) =>
      sendCommand(redis, prefix, "UNIUSDT", { t: "quote", book: "real", tick, lot: "0.01", bids: [], asks });
    const depth = () => readSnapshot<Depth>(redis, prefix, channel.depth("UNIUSDT"));
    await ladder("0.001", [[6300, 100]]);
    await waitUntil(depth, (d) => d?.data.asks[0]?.[0] === "6.3");
    // The same prices in ticks of 0.0001 would be a tenth of them on this market's grid.
    await ladder("0.0001", [[63000, 100]]);
    const emptied = await waitUntil(depth, (d) => d?.data.asks.length === 0);
    expect(emptied?.data).toEqual({ bids: [], asks: [] });
  });

  it("lets a demo account trade in the demo book only, against the demo ladder", async () => {
    await sendCommand(redis, prefix, "DOTUSDT", {
      t: "quote",
      book: "demo",
      tick: "0.0001",
      lot: "0.1",
      bids: [],
      asks: [[25000, 1000]],
    });
    await sendCommand(redis, prefix, "DOTUSDT", {
      t: "quote",
      book: "real",
      tick: "0.0001",
      lot: "0.1",
      bids: [],
      asks: [[26000, 1000]],
    });
    // The public depth shows the real book; each book's best ask is kept for market buys.
    await waitUntil(
      () => readSnapshot<Depth>(redis, prefix, channel.depth("DOTUSDT")),
      (d) => d?.data.asks[0]?.[0] === "2.6",
    );
    await waitUntil(
      () => redis.get(bestAskKey(prefix, "demo", "DOTUSDT")),
      (ask) => ask === "2.5",
    );
    const demo = await createTrader(db, { USDT: "10000" }, "demo");
    const order = await place(demo, {
      symbol: "DOTUSDT",
      side: "buy",
      type: "market",
      time_in_force: "gtc",
      quantity: "10",
    });
    // 10 DOT at the demo ladder's 2.5000, not the real one's 2.6000; protected at the demo ask + 5%.
    expect(order).toMatchObject({
      book: "demo",
      status: "filled",
      filledQuote: "25.000000000000000000",
      price: "2.625000000000000000",
    });
    expect(await balanceOf(db, demo, "DOT")).toEqual({ available: "9.99", held: "0" });
    const books = await db.execute<{ book: string; n: number }>(
      sql`select book, count(*)::int as n from spot_trades where symbol = 'DOTUSDT' group by book`,
    );
    expect(books.rows).toEqual([{ book: "demo", n: 1 }]);
    const fees = await db.execute<{ book: string }>(
      sql`select distinct book from ledger_accounts where system_code = 'fees' and currency = 'DOT'`,
    );
    expect(fees.rows).toEqual([{ book: "demo" }]);
  });

  it("ignores a second command for an order it already took", async () => {
    const maker = await createTrader(db, { DOGE: "1000" });
    const taker = await createTrader(db, { USDT: "1000" });
    const ask = await place(maker, limit("DOGEUSDT", "sell", "0.15", "1000"));
    await sendCommand(redis, prefix, "DOGEUSDT", { t: "place", id: ask.id });
    const bid = await place(taker, limit("DOGEUSDT", "buy", "0.15", "2000"));
    expect(bid).toMatchObject({ status: "partial", filledQty: "1000.000000000000000000" });
    expect(await balanceOf(db, maker, "DOGE")).toEqual({ available: "0", held: "0" });
    expect((await reconcileLedger(db)).ok).toBe(true);
  });

  it("keeps the ledger whole through thousands of random orders, cancels and fills from many users", async () => {
    const traders = await createTraders(db, 30);
    const workload = await runWorkload(deps, traders, 3000, 42);
    const rows = await settled(
      db,
      workload.orders.map((o) => o.id),
      60_000,
    );
    const fills = await db.execute<{ n: number }>(sql`select count(*)::int as n from spot_trades`);
    // The session really traded: hundreds of fills, and every kind of ending.
    expect(Number(fills.rows[0]?.n)).toBeGreaterThan(300);
    const statuses = new Set(rows.map((r) => r.status));
    for (const status of ["open", "partial", "filled", "cancelled"]) {
      expect(statuses).toContain(status);
    }
    expect(await checkSpotLedger(db)).toEqual({
      reconciled: true,
      finishedOrdersStillHolding: 0,
      heldMismatches: 0,
      openCountMismatches: 0,
      currenciesOutOfBalance: [],
    });
  }, 120_000);

  it("steps over a command that cannot be applied, and the market goes on", async () => {
    const user = await createTrader(db, { USDT: "1000" });
    // An order row whose funds were never held (only a bug could make one): releasing it must fail.
    // Last in this file: it leaves a row the ledger invariants above would rightly call wrong.
    const [bad] = await db
      .insert(spotOrders)
      .values({
        userId: user.id,
        book: "real",
        symbol: "LINKUSDT",
        base: "LINK",
        quote: "USDT",
        side: "buy",
        type: "limit",
        timeInForce: "ioc",
        price: "1",
        quantity: "1",
        feeCurrency: "LINK",
        holdCurrency: "USDT",
        held: "1",
      })
      .returning();
    await sendCommand(redis, prefix, "LINKUSDT", { t: "place", id: bad?.id ?? 0 });
    const other = await createTrader(db, { USDT: "10" });
    const next = await placeOrder(deps, other, limit("LINKUSDT", "buy", "1", "1"));
    const [skipped, placed] = await settled(db, [bad?.id ?? 0, next.id], 30_000);
    expect(skipped).toMatchObject({ status: "rejected", cancelReason: "matcher_error" });
    expect(placed?.status).toBe("open");
    // Nothing was held for the bad order, and nothing moved for it.
    expect(await balanceOf(db, user, "USDT")).toEqual({ available: "1000", held: "0" });
    expect(await balanceOf(db, other, "USDT")).toEqual({ available: "9", held: "1" });
  }, 40_000);
});

describe("the market maker and a stale price", () => {
  it("pulls its quotes while its market's last price is older than spot.maxTickAgeMs, and quotes again when it is fresh", async () => {
    // FET: tick 0.0001, lot 0.1. The test's clock moves; the ticker's time is when the feed last priced it.
    let now = Date.UTC(2026, 10, 18, 10, 0, 0);
    const ticker = (t: number): Ticker => ({
      s: "FETUSDT",
      p: "0.2480",
      o: "0.2480",
      h: "0.2480",
      l: "0.2480",
      v: "0",
      q: "0",
      c: "0.00",
      t,
      x: true,
    });
    const priced = (t: number) =>
      redis.set(
        snapshotKey(prefix, "tickers"),
        JSON.stringify({ ch: "tickers", seq: 1, ts: t, data: [ticker(t)] }),
      );
    const maker = new MarketMaker({ db, redis, prefix, now: () => now });
    const depth = () => readSnapshot<Depth>(redis, prefix, channel.depth("FETUSDT"));
    const sides = (d: Awaited<ReturnType<typeof depth>>): [number, number] => [
      d?.data.bids.length ?? 0,
      d?.data.asks.length ?? 0,
    ];
    try {
      await priced(now);
      await maker.refresh();
      const quoted = await waitUntil(depth, (d) => sides(d)[0] > 0 && sides(d)[1] > 0);
      expect(quoted?.data.bids[0]?.[0]).toBe("0.2478");

      // 5 s is the default limit: at 5 s the price is still fresh, a millisecond later it is stale.
      now += 5000;
      await maker.refresh();
      expect(sides(await depth())).toEqual(sides(quoted));
      now += 1;
      await maker.refresh();
      await waitUntil(depth, (d) => sides(d)[0] === 0 && sides(d)[1] === 0);
      // A market order finds nothing to take, and is refused before it tries.
      const buyer = await createTrader(db, { USDT: "100" });
      expect(
        await refusal(
          placeOrder({ ...deps, now: () => new Date(now) }, buyer, {
            symbol: "FETUSDT",
            side: "buy",
            type: "market",
            time_in_force: "gtc",
            quote_amount: "10",
          }),
        ),
      ).toBe("MARKET_PRICE_STALE");

      // While stale, later rounds send nothing more: the book stays empty.
      now += 60_000;
      await maker.refresh();
      expect(sides(await depth())).toEqual([0, 0]);

      // A fresh price: the ladder is back.
      await priced(now);
      await maker.refresh();
      const back = await waitUntil(depth, (d) => sides(d)[0] > 0 && sides(d)[1] > 0);
      expect(back?.data.bids[0]?.[0]).toBe("0.2478");
    } finally {
      await redis.del(snapshotKey(prefix, "tickers"));
    }
  });
});
