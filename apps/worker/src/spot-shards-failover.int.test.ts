import { once } from "node:events";
import { shardOf } from "@northstar/domain/leases";
import { SpotMatcher } from "@northstar/domain/spot";
import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { drained, settled } from "../../../packages/domain/src/spot/testing.ts";
import { checkSpotLedger, createTraders, runWorkload } from "../../../packages/domain/src/spot/workload.ts";
import { testRedisUrl, until } from "../../../packages/domain/src/test-support/index.ts";
import {
  newRun as newTestRun,
  outcome,
  type Run,
  SHARDED_FUNDS,
  SHARDED_MARKETS,
  startWorker,
  takenShards,
} from "./test/spot-runs.ts";

/*
 * The spot markets split over two shards, each its own lease: two worker processes hold one shard
 * each (the first may hold only one, SPOT_MATCHER_MAX_SHARDS=1). During a burst of orders on four
 * markets the first is killed (SIGKILL); the second takes its shard within a few lease lives and
 * serves both. Every order ends as an uninterrupted run of the same commands by one matcher ends it
 * (no order lost, no fill missing or made twice), and the ledger reconciles exactly.
 */
const SHARDS = 2;
const TTL_MS = 1500;
const COMMANDS = 1600;
const SEED = 20261128;
const TRADERS = 20;
const QUOTE_EVERY = 40;
const MARKETS = SHARDED_MARKETS;
const FUNDS = SHARDED_FUNDS;

const runs: Run[] = [];
const redis = new Redis(testRedisUrl());
const newRun = async () => {
  const run = await newTestRun(redis, "shards");
  runs.push(run);
  return run;
};

afterAll(async () => {
  for (const run of runs) {
    await run.close();
  }
  redis.disconnect();
});

describe("sharded spot matchers", () => {
  it("split the markets over two workers; the survivor takes the killed one's shard and every order ends as in one matcher", async () => {
    const shardOfMarket = new Map(MARKETS.map((m) => [m.symbol, shardOf(m.symbol, SHARDS)]));
    // The workload trades in both shards.
    expect(new Set(shardOfMarket.values())).toEqual(new Set([0, 1]));

    // The reference: one matcher for every market, in this process.
    const reference = await newRun();
    const matcher = new SpotMatcher({
      db: reference.db,
      redis: new Redis(testRedisUrl()),
      prefix: reference.prefix,
      blockMs: 10,
    });
    await matcher.start();
    const refWork = await runWorkload(
      { db: reference.db, redis, prefix: reference.prefix },
      await createTraders(reference.db, TRADERS, FUNDS),
      COMMANDS,
      SEED,
      { quoteEvery: QUOTE_EVERY, markets: MARKETS },
    );
    await settled(
      reference.db,
      refWork.orders.map((o) => o.id),
      90_000,
    );
    // Taken is not done: the last cancels may still wait in the streams.
    await drained(
      reference.db,
      redis,
      reference.prefix,
      MARKETS.map((m) => m.symbol),
    );
    await matcher.stop();
    const expected = await outcome(reference, refWork);
    expect(expected.refused).toEqual([]);
    for (const market of MARKETS) {
      expect(expected.trades.filter((t) => t.symbol === market.symbol).length, market.symbol).toBeGreaterThan(
        20,
      );
    }

    // Two workers: the first holds one shard at most, the second takes the other.
    const crash = await newRun();
    const shardEnv = { SPOT_MATCHER_SHARDS: String(SHARDS), LEASE_TTL_MS: String(TTL_MS) };
    const first = startWorker(crash, "first", { ...shardEnv, SPOT_MATCHER_MAX_SHARDS: "1" });
    await until(
      () => takenShards(first.lines, crash.prefix).length === 1,
      "the first worker to take a shard",
    );
    const second = startWorker(crash, "second", shardEnv);
    await until(
      () => takenShards(second.lines, crash.prefix).length === 1,
      "the second worker to take a shard",
    );
    const [firstShard] = takenShards(first.lines, crash.prefix);
    const [secondShard] = takenShards(second.lines, crash.prefix);
    expect(new Set([firstShard, secondShard])).toEqual(new Set([0, 1]));
    const holders = await redis.mget(
      `${crash.prefix}:lease:spot-matcher:0`,
      `${crash.prefix}:lease:spot-matcher:1`,
    );
    expect(new Set(holders).size).toBe(2);
    const firstMarkets = MARKETS.filter((m) => shardOfMarket.get(m.symbol) === firstShard).map(
      (m) => m.symbol,
    );

    let burstDone = false;
    const working = runWorkload(
      { db: crash.db, redis, prefix: crash.prefix },
      await createTraders(crash.db, TRADERS, FUNDS),
      COMMANDS,
      SEED,
      { quoteEvery: QUOTE_EVERY, markets: MARKETS },
    ).finally(() => {
      burstDone = true;
    });
    // Killed once its markets have fills, while orders still arrive.
    await until(async () => {
      const fills = await crash.db.execute<{ n: number }>(
        `select count(*)::int as n from spot_trades where symbol in (${firstMarkets.map((s) => `'${s}'`).join(", ")})`,
      );
      return Number(fills.rows[0]?.n) >= 30;
    }, "fills in the first worker's markets before the kill");
    expect(burstDone).toBe(false);
    first.child.kill("SIGKILL");
    const killedAt = Date.now();
    await once(first.child, "exit");
    await until(
      () => takenShards(second.lines, crash.prefix).includes(firstShard as number),
      "the second worker to take the first's shard",
    );
    const takeoverMs = Date.now() - killedAt;
    console.log(`shard ${firstShard} taken over ${takeoverMs} ms after the kill (lease TTL ${TTL_MS} ms)`);
    // The lease lapses TTL after the last renewal; the standby tries every fifth of it.
    expect(takeoverMs).toBeLessThan(3 * TTL_MS);

    const work = await working;
    await settled(
      crash.db,
      work.orders.map((o) => o.id),
      90_000,
    );
    // Taken is not done: the last cancels may still wait in the streams.
    await drained(
      crash.db,
      redis,
      crash.prefix,
      MARKETS.map((m) => m.symbol),
    );
    second.child.kill("SIGTERM");
    await once(second.child, "exit");

    const actual = await outcome(crash, work);
    expect(actual.orders.length).toBe(expected.orders.length);
    expect(actual.orders).toEqual(expected.orders);
    expect(actual.trades).toEqual(expected.trades);
    expect(actual.balances).toEqual(expected.balances);
    expect(actual.marketMaker).toEqual(expected.marketMaker);
    expect(actual.quotesLeft).toEqual(expected.quotesLeft);
    expect(actual.refused).toEqual([]);
    // Each order's fills add up to what the order says it filled: none missing, none twice.
    const fills = await crash.db.execute<{ n: number }>(`
      select count(*)::int as n from spot_orders o
      where o.filled_qty <> coalesce((select sum(t.quantity) from spot_trades t
        where t.maker_order_id = o.id or t.taker_order_id = o.id), 0)`);
    expect(Number(fills.rows[0]?.n)).toBe(0);
    expect(await checkSpotLedger(crash.db)).toEqual({
      reconciled: true,
      finishedOrdersStillHolding: 0,
      heldMismatches: 0,
      openCountMismatches: 0,
      currenciesOutOfBalance: [],
    });
  }, 300_000);
});
