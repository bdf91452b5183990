import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { createDb, type Db } from "@northstar/domain/db";
import { getUserBalances } from "@northstar/domain/ledger";
import { seedDatabase } from "@northstar/domain/seed";
import { SpotMatcher, spotOrders, spotTrades } from "@northstar/domain/spot";
import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { settled } from "../../../packages/domain/src/spot/testing.ts";
import {
  checkSpotLedger,
  createTraders,
  runWorkload,
  type Workload,
} from "../../../packages/domain/src/spot/workload.ts";
import { createTestDatabase, testRedisUrl } from "../../../packages/domain/src/test-support/index.ts";

/*
 * The matcher is killed in the middle of a busy stream; a standby worker takes over; the outcome
 * (every order, every fill, every balance, the market maker's included, and the quotes left) equals
 * that of an uninterrupted run of the same commands.
 */
const ROOT = fileURLToPath(new URL("../../..", import.meta.url));
const COMMANDS = 1200;
const SEED = 20261124;
const TRADERS = 20;
/** A market-maker ladder for each market every this many commands: its quotes are in the books too. */
const QUOTE_EVERY = 40;

interface Run {
  db: Db;
  url: string;
  prefix: string;
  close(): Promise<void>;
}
const runs: Run[] = [];
const redis = new Redis(testRedisUrl());

async function newRun(): Promise<Run> {
  const database = await createTestDatabase();
  const conn = createDb(database.url, { max: 10 });
  await seedDatabase(conn.db);
  const run: Run = {
    db: conn.db,
    url: database.url,
    prefix: `test:failover:${randomBytes(3).toString("hex")}`,
    async close() {
      const keys = await redis.keys(`${run.prefix}*`);
      if (keys.length) {
        await redis.del(...keys);
      }
      await conn.close();
      await database.drop();
    },
  };
  runs.push(run);
  return run;
}

function startWorker(run: Run, name: string): { child: ChildProcess; lines: string[] } {
  const lines: string[] = [];
  const child = spawn(process.execPath, ["--import", "tsx", "apps/worker/src/main.ts"], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_URL: run.url,
      REDIS_URL: testRedisUrl(),
      REDIS_PREFIX: run.prefix,
      WORKER_ROLES: "spot-matcher",
      LEASE_TTL_MS: "1500",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  for (const stream of [child.stdout, child.stderr]) {
    stream?.on("data", (chunk: Buffer) =>
      lines.push(
        ...chunk
          .toString()
          .split("\n")
          .map((l) => `${name}: ${l}`),
      ),
    );
  }
  return { child, lines };
}

async function until(probe: () => Promise<boolean> | boolean, what: string, timeoutMs = 30_000) {
  const end = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > end) {
      throw new Error(`timed out: ${what}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Everything that must be equal between the runs, keyed by position (not by database id). */
async function outcome(run: Run, workload: Workload) {
  const position = new Map(workload.orders.map((o, i) => [o.id, i]));
  const orders = await run.db.select().from(spotOrders).orderBy(spotOrders.id);
  const trades = await run.db.select().from(spotTrades).orderBy(spotTrades.id);
  const balances = [];
  for (const trader of workload.traders) {
    balances.push(await getUserBalances(run.db, trader.id, "real"));
  }
  const marketMaker = await run.db.execute<{ currency: string; balance: string }>(
    "select currency, balance::text from ledger_accounts where system_code = 'market_maker' order by book, currency",
  );
  const quotes = await run.db.execute<{ side: string; price: string; quantity: string }>(
    "select symbol, book, side, price::text, quantity::text from spot_quotes order by queue_seq",
  );
  return {
    orders: orders.map((o) => ({
      at: position.get(o.id),
      status: o.status,
      filledQty: o.filledQty,
      filledQuote: o.filledQuote,
      fee: o.fee,
      held: o.held,
      cancelReason: o.cancelReason,
    })),
    // Fills of one market keep their order; between markets, batches may interleave differently.
    trades: trades
      .map((t) => ({
        maker: position.get(t.makerOrderId ?? 0),
        taker: position.get(t.takerOrderId ?? 0),
        price: t.price,
        quantity: t.quantity,
        makerFee: t.makerFee,
        takerFee: t.takerFee,
        symbol: t.symbol,
      }))
      .sort((a, b) => a.symbol.localeCompare(b.symbol)),
    balances,
    marketMaker: marketMaker.rows,
    quotesLeft: quotes.rows,
    refused: Object.keys(workload.refused).filter((code) => code !== "ORDER_NOT_OPEN"),
  };
}

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
    await matcher.stop();
    const expected = await outcome(reference, refWork);
    expect(expected.trades.length).toBeGreaterThan(100);
    // The market maker really traded, and quotes are resting at the end.
    expect(expected.trades.some((t) => t.maker === undefined)).toBe(true);
    expect(expected.quotesLeft.length).toBeGreaterThan(0);
    expect(expected.refused).toEqual([]);

    // The interrupted run: two worker processes, the first killed while the stream is busy.
    const crash = await newRun();
    const leaseKey = `${crash.prefix}:lease:spot-matcher`;
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
      currenciesOutOfBalance: [],
    });
  }, 180_000);
});
