import { randomBytes } from "node:crypto";
import type { TPlaceOrderRequest } from "@northstar/shared/contracts/spot";
import type { InstrumentInput } from "@northstar/shared/markets";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type Db } from "../db/client.ts";
import type { User } from "../identity/index.ts";
import { shardOf } from "../leases/index.ts";
import { saveInstrument } from "../markets/index.ts";
import { seedDatabase } from "../setup/index.ts";
import { createTestDatabase, testRedisUrl } from "../test-support/index.ts";
import { placeOrder, type SpotDeps, SpotMatcher, spotStreamCursors } from "./index.ts";
import { createTrader, orderRow, settled, waitUntil } from "./testing.ts";
import { checkSpotLedger } from "./workload.ts";

/*
 * A matcher given a shard serves only the markets whose symbol hashes into it: another shard's
 * orders wait for that shard's matcher, and a market added to the catalogue while they run is
 * taken up by the matcher of its shard alone.
 */
let db: Db;
let redis: Redis;
let deps: SpotDeps;
let teardown: () => Promise<void>;
const prefix = `test:spot-shards:${randomBytes(3).toString("hex")}`;
const matchers: SpotMatcher[] = [];
const COUNT = 2;

beforeAll(async () => {
  const database = await createTestDatabase();
  const conn = createDb(database.url, { max: 10 });
  db = conn.db;
  await seedDatabase(db);
  redis = new Redis(testRedisUrl());
  deps = { db, redis, prefix };
  teardown = async () => {
    for (const matcher of matchers) {
      await matcher.stop();
    }
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

async function startMatcher(index: number) {
  const matcher = new SpotMatcher({
    db,
    redis: new Redis(testRedisUrl()),
    prefix,
    blockMs: 10,
    sweepAfterMs: 300,
    catalogueCheckMs: 200,
    shard: { index, count: COUNT },
  });
  await matcher.start();
  matchers.push(matcher);
}

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

const listing = (symbol: string, base: string) =>
  ({
    symbol,
    name: `Test listing ${base}`,
    category: "crypto",
    base,
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
  }) satisfies InstrumentInput;

const cursorOf = async (symbol: string) =>
  (await db.select().from(spotStreamCursors)).find((c) => c.symbol === symbol)?.lastId ?? null;

describe("spot matcher shards", () => {
  it("serve only their own markets, and a market listed later lands in its shard's matcher", async () => {
    const first = shardOf("BTCUSDT", COUNT);
    const other = shardOf("BCHUSDT", COUNT);
    expect(other).not.toBe(first);
    // Two new coins, one hashing into each shard.
    const bases = ["ZQA", "ZQB", "ZQC", "ZQD", "ZQE", "ZQF", "ZQG", "ZQH"];
    const newBase = (shard: number) => bases.find((b) => shardOf(`${b}USDT`, COUNT) === shard) as string;
    const [newFirst, newOther] = [newBase(first), newBase(other)];

    await startMatcher(first);
    const trader = await createTrader(db, {
      USDT: "100000",
      BTC: "1",
      BCH: "10",
      [newFirst]: "10",
      [newOther]: "10",
    });
    const taker = await createTrader(db, { USDT: "100000" });
    const place = (user: User, order: TPlaceOrderRequest) => placeOrder(deps, user, order);

    const bchAsk = await place(trader, limit("BCHUSDT", "sell", "500", "1"));
    const btcAsk = await place(trader, limit("BTCUSDT", "sell", "60000", "0.01"));
    await settled(db, [btcAsk.id]);
    expect((await orderRow(db, btcAsk.id))?.status).toBe("open");
    expect(await cursorOf("BTCUSDT")).not.toBeNull();

    // Listed while the matcher runs: the new market of its shard is taken up without a restart.
    await saveInstrument(db, listing(`${newFirst}USDT`, newFirst), "test");
    await saveInstrument(db, listing(`${newOther}USDT`, newOther), "test");
    const newFirstAsk = await place(trader, limit(`${newFirst}USDT`, "sell", "1.5", "2"));
    const newOtherAsk = await place(trader, limit(`${newOther}USDT`, "sell", "1.5", "2"));
    await settled(db, [newFirstAsk.id], 60_000);
    // A later command of this shard, and a sweep for orders whose command was lost, came and went:
    // the other shard's orders are still untouched, and nothing of theirs was committed.
    const late = await place(trader, limit("BTCUSDT", "sell", "61000", "0.01"));
    await waitUntil(
      () => orderRow(db, late.id),
      (row) => row?.status === "open" && Date.now() - new Date(row.createdAt).getTime() > 600,
    );
    expect((await orderRow(db, bchAsk.id))?.status).toBe("pending");
    expect((await orderRow(db, newOtherAsk.id))?.status).toBe("pending");
    expect(await cursorOf("BCHUSDT")).toBeNull();
    expect(await cursorOf(`${newOther}USDT`)).toBeNull();

    // The other shard's matcher takes its orders up; a buy in each shard fills against them.
    await startMatcher(other);
    await settled(db, [bchAsk.id, newOtherAsk.id]);
    const buys = await Promise.all([
      place(taker, limit("BCHUSDT", "buy", "500", "1")),
      place(taker, limit("BTCUSDT", "buy", "60000", "0.01")),
      place(taker, limit(`${newFirst}USDT`, "buy", "1.5", "2")),
      place(taker, limit(`${newOther}USDT`, "buy", "1.5", "2")),
    ]);
    await settled(
      db,
      buys.map((b) => b.id),
    );
    for (const id of [...buys.map((b) => b.id), bchAsk.id, btcAsk.id, newFirstAsk.id, newOtherAsk.id]) {
      expect((await orderRow(db, id))?.status, `order ${id}`).toBe("filled");
    }
    expect(await checkSpotLedger(db)).toEqual({
      reconciled: true,
      finishedOrdersStillHolding: 0,
      heldMismatches: 0,
      openCountMismatches: 0,
      currenciesOutOfBalance: [],
    });
  }, 120_000);
});
