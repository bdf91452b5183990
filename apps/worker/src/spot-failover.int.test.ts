import { once } from "node:events";
import { SpotMatcher } from "@northstar/domain/spot";
import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { drained, settled } from "../../../packages/domain/src/spot/testing.ts";
import {
  checkSpotLedger,
  createTraders,
  runWorkload,
  WORKLOAD_MARKETS,
} from "../../../packages/domain/src/spot/workload.ts";
import { testRedisUrl, until } from "../../../packages/domain/src/test-support/index.ts";
import { newRun as newTestRun, outcome, type Run, startWorker } from "./test/spot-runs.ts";

/*
 * The matcher is killed in the middle of a busy stream; a standby worker takes over; the outcome
 * (every order, every fill, every balance, the market maker's included, and the quotes left) equals
 * that of an uninterrupted run of the same commands.
 */
const COMMANDS = 1200;
const SEED = 20261124;
const TRADERS = 20;
/** A market-maker ladder for each market every this many commands: its quotes are in the books too. */
const QUOTE_EVERY = 40;

const runs: Run[] = [];
const redis = new Redis(testRedisUrl());
const newRun = async () => {
  const run = await newTestRun(redis, "failover");
  runs.push(run);
  return run;
};

afterAll(async () => {
  for (const run of runs) {
    await run.close();
  }
  redis.disconnect();
});

describe("spot matcher failover", () => {
  it("ends with the same orders, fills and balances after the matcher is killed mid-stream", async () => {
    // The uninterrupted run: one matcher in this process.
    const reference = await newRun();
    const matcher = new SpotMatcher({
      db: reference.db,
      redis: new Redis(testRedisUrl()),
      prefix: reference.prefix,
      blockMs: 10,
    });
    await matcher.start();
    const refTraders = await createTraders(reference.db, TRADERS);
    const refWork = await runWorkload(
      { db: reference.db, redis, prefix: reference.prefix },
      refTraders,
      COMMANDS,
      SEED,
      { quoteEvery: QUOTE_EVERY },
    );
    await settled(
      reference.db,
      refWork.orders.map((o) => o.id),
      60_000,
    );
    // Taken is not done: the last cancels may still wait in the streams.
    await drained(
      reference.db,
      redis,
      reference.prefix,
      WORKLOAD_MARKETS.map((m) => m.symbol),
    );
    await matcher.stop();
    const expected = await outcome(reference, refWork);
    expect(expected.trades.length).toBeGreaterThan(100);
    // The market maker really traded, and quotes are resting at the end.
    expect(expected.trades.some((t) => t.maker === undefined)).toBe(true);
    expect(expected.quotesLeft.length).toBeGreaterThan(0);
    expect(expected.refused).toEqual([]);

    // The interrupted run: two worker processes, the first killed while the stream is busy.
    const crash = await newRun();
    const leaseKey = `${crash.prefix}:lease:spot-matcher:0`;
    const first = startWorker(crash, "first");
    await until(async () => (await redis.get(leaseKey)) !== null, "the first worker to take the lease");
    const second = startWorker(crash, "second");
    const traders = await createTraders(crash.db, TRADERS);
    const working = runWorkload({ db: crash.db, redis, prefix: crash.prefix }, traders, COMMANDS, SEED, {
      quoteEvery: QUOTE_EVERY,
    });
    await until(async () => {
      const fills = await crash.db.execute<{ n: number }>("select count(*)::int as n from spot_trades");
      return Number(fills.rows[0]?.n) >= 30;
    }, "fills before the kill");
    first.child.kill("SIGKILL");
    await once(first.child, "exit");
    const work = await working;
    await settled(
      crash.db,
      work.orders.map((o) => o.id),
      60_000,
    );
    // Taken is not done: the last cancels may still wait in the streams.
    await drained(
      crash.db,
      redis,
      crash.prefix,
      WORKLOAD_MARKETS.map((m) => m.symbol),
    );
    second.child.kill("SIGTERM");
    await once(second.child, "exit");

    expect(second.lines.some((l) => l.includes("took lease"))).toBe(true);
    const actual = await outcome(crash, work);
    expect(actual.orders).toEqual(expected.orders);
    expect(actual.trades).toEqual(expected.trades);
    expect(actual.balances).toEqual(expected.balances);
    expect(actual.marketMaker).toEqual(expected.marketMaker);
    expect(actual.quotesLeft).toEqual(expected.quotesLeft);
    expect(actual.refused).toEqual([]);
    expect(await checkSpotLedger(crash.db)).toEqual({
      reconciled: true,
      finishedOrdersStillHolding: 0,
      heldMismatches: 0,
      openCountMismatches: 0,
      currenciesOutOfBalance: [],
    });
  }, 180_000);
});
