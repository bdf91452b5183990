import { once } from "node:events";
import { createServer } from "node:net";
import { shardCountKey, shardLeaseKey, shardOf } from "@northstar/domain/leases";
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
 * Workers started with different SPOT_MATCHER_SHARDS on one prefix (a rolling change of the count):
 * two with 2 shards hold one each; one started later with 3 takes none, and says why, while either
 * of them holds a shard. A burst of orders on four markets (each in a different shard under the two
 * counts) is matched meanwhile; the first two stop one after the other (SIGTERM), the survivor of
 * the old count takes the first's shard, and once both are gone the new worker takes its three
 * shards within the lease TTL. Every order ends as one matcher alone would end it, no batch ever
 * failed (no two matchers worked one market), and the ledger reconciles.
 */
const OLD = 2;
const NEW = 3;
const TTL_MS = 1500;
const COMMANDS = 1200;
const SEED = 20261205;
const TRADERS = 20;
const QUOTE_EVERY = 40;
const MARKETS = SHARDED_MARKETS;
const FUNDS = SHARDED_FUNDS;

const runs: Run[] = [];
const redis = new Redis(testRedisUrl());
const newRun = async () => {
  const run = await newTestRun(redis, "shard-count");
  runs.push(run);
  return run;
};
afterAll(async () => {
  for (const run of runs) {
    await run.close();
  }
  redis.disconnect();
});

async function freePort(): Promise<number> {
  const server = createServer().listen(0, "127.0.0.1");
  await once(server, "listening");
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  return typeof address === "object" && address ? address.port : 0;
}

describe("spot matchers started with two shard counts", () => {
  it("the later count takes no shard while the first holds; every market has one matcher; it takes over once the first count is gone", async () => {
    // Under 2 shards BTC and ETH share shard 0, BCH and ETC shard 1; under 3 they spread over all
    // three (BTC and ETH 1, BCH 2, ETC 0): any overlap of the two counts would put a market in two.
    expect(MARKETS.map((m) => shardOf(m.symbol, OLD))).toEqual([0, 0, 1, 1]);
    expect(MARKETS.map((m) => shardOf(m.symbol, NEW))).toEqual([1, 1, 2, 0]);

    // The reference: one matcher for every market, in this process.
    const reference = await newRun();
    const referenceLines: string[] = [];
    const matcher = new SpotMatcher({
      db: reference.db,
      redis: new Redis(testRedisUrl()),
      prefix: reference.prefix,
      blockMs: 10,
      log: (line) => referenceLines.push(`reference: ${line}`),
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

    const run = await newRun();
    const { prefix } = run;
    const env = (count: number) => ({ SPOT_MATCHER_SHARDS: String(count), LEASE_TTL_MS: String(TTL_MS) });
    const oldA = startWorker(run, "oldA", { ...env(OLD), SPOT_MATCHER_MAX_SHARDS: "1" });
    await until(
      () => takenShards(oldA.lines, prefix).length === 1,
      "the first old-count worker to take a shard",
    );
    const oldB = startWorker(run, "oldB", env(OLD));
    await until(
      () => takenShards(oldB.lines, prefix).length === 1,
      "the second old-count worker to take a shard",
    );
    const [shardA] = takenShards(oldA.lines, prefix) as [number];
    expect(new Set([shardA, ...takenShards(oldB.lines, prefix)])).toEqual(new Set([0, 1]));
    const port = await freePort();
    const fresh = startWorker(run, "new", { ...env(NEW), WORKER_HTTP_PORT: String(port) });
    const standingBy = () => fresh.lines.filter((l) => l.includes("spot-matcher: standing by")).length;
    await until(() => standingBy() === 1, "the new-count worker to say it stands by");
    expect(fresh.lines.find((l) => l.includes("standing by"))).toContain(
      `held by workers with ${OLD} shards, this one has ${NEW}`,
    );

    /** Who serves the markets now: the holders of shards 0 … 2, and the recorded count. */
    const holders = async () => {
      const keys = [0, 1, 2].map((i) => shardLeaseKey(prefix, "spot-matcher", i));
      return {
        tokens: await redis.mget(...keys),
        count: await redis.get(shardCountKey(prefix, "spot-matcher")),
      };
    };
    /** Every market has exactly one matcher: the old count's two shards held, nothing under the new. */
    const servedByOldCount = async () => {
      const { tokens, count } = await holders();
      expect(count).toBe(String(OLD));
      expect(tokens[0]).toMatch(new RegExp(`^${OLD}/`));
      expect(tokens[1]).toMatch(new RegExp(`^${OLD}/`));
      expect(tokens[2]).toBeNull();
      expect(takenShards(fresh.lines, prefix)).toEqual([]);
    };
    await servedByOldCount();

    // A healthy standby: ready, and its gauge says why it serves nothing.
    const base = `http://127.0.0.1:${port}`;
    await until(
      async () => (await fetch(`${base}/ready`).catch(() => null))?.status === 200,
      "the new worker ready",
    );
    const metrics = await (await fetch(`${base}/metrics`)).text();
    expect(metrics).toContain('northstar_lease_shard_count_mismatch{role="spot-matcher"} 1');
    expect(metrics).toContain('northstar_lease_shards{role="spot-matcher"} 2');
    expect(metrics).toMatch(/northstar_worker_lease_held\{role="spot-matcher",shard="2"\} 0/);

    let burstDone = false;
    const working = runWorkload(
      { db: run.db, redis, prefix },
      await createTraders(run.db, TRADERS, FUNDS),
      COMMANDS,
      SEED,
      { quoteEvery: QUOTE_EVERY, markets: MARKETS },
    ).finally(() => {
      burstDone = true;
    });
    const fills = async () =>
      Number((await run.db.execute<{ n: number }>("select count(*)::int as n from spot_trades")).rows[0]?.n);
    const total = expected.trades.length;
    await until(async () => (await fills()) >= total / 4, "fills while both counts run");
    await servedByOldCount();

    // The first old-count worker stops: the other takes its shard; the new one still takes none.
    oldA.child.kill("SIGTERM");
    await once(oldA.child, "exit");
    await until(
      () => takenShards(oldB.lines, prefix).includes(shardA),
      "the remaining old worker to take the shard",
    );
    await until(async () => (await fills()) >= total / 2, "more fills under the remaining old worker");
    await servedByOldCount();
    const duringBurst = !burstDone;

    // The last old-count worker stops: the new one takes its three shards within the lease TTL.
    oldB.child.kill("SIGTERM");
    await once(oldB.child, "exit");
    const stoppedAt = Date.now();
    await until(
      () => takenShards(fresh.lines, prefix).length === NEW,
      "the new worker to take its shards",
      10_000,
    );
    const takeoverMs = Date.now() - stoppedAt;
    console.log(
      `all ${NEW} shards taken ${takeoverMs} ms after the last ${OLD}-shard worker stopped (lease TTL ${TTL_MS} ms); burst still running then: ${duringBurst}`,
    );
    expect(takeoverMs).toBeLessThan(TTL_MS);
    const after = await holders();
    expect(after.count).toBe(String(NEW));
    for (const token of after.tokens) {
      expect(token).toMatch(new RegExp(`^${NEW}/`));
    }
    await until(async () => {
      const text = await (await fetch(`${base}/metrics`)).text();
      return text.includes('northstar_lease_shard_count_mismatch{role="spot-matcher"} 0');
    }, "the gauge to clear");

    const work = await working;
    await settled(
      run.db,
      work.orders.map((o) => o.id),
      90_000,
    );
    // Taken is not done: the last cancels may still wait in the streams.
    await drained(
      run.db,
      redis,
      run.prefix,
      MARKETS.map((m) => m.symbol),
    );
    fresh.child.kill("SIGTERM");
    await once(fresh.child, "exit");

    // Said once, not at every retry.
    expect(standingBy()).toBe(1);
    // No batch of any matcher failed: two matchers on one market would fail each other's.
    const all = [...referenceLines, ...oldA.lines, ...oldB.lines, ...fresh.lines];
    expect(all.filter((l) => l.includes("batch failed"))).toEqual([]);
    const actual = await outcome(run, work);
    expect(actual.orders.length).toBe(expected.orders.length);
    expect(actual.orders).toEqual(expected.orders);
    expect(actual.trades).toEqual(expected.trades);
    expect(actual.balances).toEqual(expected.balances);
    expect(actual.marketMaker).toEqual(expected.marketMaker);
    expect(actual.quotesLeft).toEqual(expected.quotesLeft);
    expect(actual.refused).toEqual([]);
    for (const market of MARKETS) {
      expect(actual.trades.filter((t) => t.symbol === market.symbol).length, market.symbol).toBeGreaterThan(
        10,
      );
    }
    expect(await checkSpotLedger(run.db)).toEqual({
      reconciled: true,
      finishedOrdersStillHolding: 0,
      heldMismatches: 0,
      openCountMismatches: 0,
      currenciesOutOfBalance: [],
    });
  }, 300_000);
});
