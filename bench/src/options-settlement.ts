import { type ChildProcess, spawn } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createDb, type Db } from "@northstar/domain/db";
import { users } from "@northstar/domain/identity";
import { type EntryInput, postEntries, reconcileLedger } from "@northstar/domain/ledger";
import {
  createSettlementScheduler,
  optionOrders,
  recordTicks,
  settleDueOptions,
  settlementDueAt,
  settleOption,
} from "@northstar/domain/options";
import { MoneyDecimal } from "@northstar/shared/money";
import { Redis } from "ioredis";
import { freshPlatformDatabase } from "./database.ts";
import { processCpuSeconds } from "./process-cpu.ts";
import { sized } from "./smoke.ts";
import { type BenchResult, percentile } from "./types.ts";

/*
 * Options settlement. Three measurements, each repeated (median and range):
 * - capacity: a backlog of expired orders settled in this process, set-based (`settleDueOptions`,
 *   what the worker runs) alternating with the peer, one transaction per order (`settleOption`);
 *   settlements per wall second and per CPU-second of this process;
 * - steady: orders expiring at a fixed rate, settled by a real worker process (role
 *   `option-settlement`) through its slot jobs; the delay from each order's expiry to the moment its
 *   settlement, committed, reaches the buyer's `user` channel in Redis;
 * - burst: 10,000 orders expiring within one second; the time until the last one is announced.
 * Orders are written in bulk with their purchase's ledger entry, as purchases leave them; the feed is
 * a tick per instrument every 100 ms. The ledger must reconcile at the end.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const DATABASE_URL =
  process.env.BENCH_OPTIONS_DATABASE_URL ??
  `postgresql://postgres@127.0.0.1:5432/northstar_bench_options${sized("", "_smoke")}`;
const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const REPEATS = Number(process.env.BENCH_OPTIONS_REPEATS ?? sized(3, 1));
const BACKLOG = Number(process.env.BENCH_OPTIONS_BACKLOG ?? sized(6000, 300));
const STEADY_RATE = Number(process.env.BENCH_OPTIONS_RATE ?? sized(2000, 100));
const STEADY_SECONDS = Number(process.env.BENCH_OPTIONS_SECONDS ?? sized(10, 2));
const BURST = sized(10_000, 500);
const BUYERS = sized(500, 50);
const SYMBOLS = ["BTCUSDT", "ETHUSDT"] as const;

const selfCpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

async function createBuyers(db: Db): Promise<number[]> {
  const rows = await db
    .insert(users)
    .values(
      Array.from({ length: BUYERS }, (_, i) => ({
        uid: String(20_000_000 + i),
        passwordHash: "x",
        nationality: "GB",
        inviteCode: `B${String(i).padStart(7, "0")}`,
        nickname: `Buyer${i}`,
      })),
    )
    .returning({ id: users.id });
  const ids = rows.map((r) => r.id);
  await postEntries(
    db,
    ids.map((id) => ({
      idempotencyKey: `bench.grant:${id}`,
      kind: "test.grant",
      reference: { type: "test", id },
      postings: [
        {
          account: { system: "deposit_clearing:bench", book: "real", currency: "USDT" },
          amount: "-100000000",
        },
        { account: { userId: id, book: "real", wallet: "option", currency: "USDT" }, amount: "100000000" },
      ],
    })),
  );
  return ids;
}

/** Writes open orders expiring at the given instants, with their purchases' ledger entries. */
async function writeOrders(db: Db, buyers: number[], expiries: Date[], purchaseTicks: Map<string, number>) {
  let n = 0;
  const ids: number[] = [];
  for (let i = 0; i < expiries.length; i += 2000) {
    const rows = expiries.slice(i, i + 2000).map((expiresAt) => {
      const k = n++;
      const symbol = SYMBOLS[k % SYMBOLS.length] as string;
      const amount = `${10 + (k % 90)}`;
      return {
        userId: buyers[k % buyers.length] as number,
        book: "real" as const,
        symbol,
        direction: (k % 2 === 0 ? "up" : "down") as "up" | "down",
        periodSeconds: 60,
        amount,
        fee: new MoneyDecimal(amount).times("0.01").toFixed(),
        feeRate: "0.01",
        payoutRate: "0.85",
        tieRule: "refund" as const,
        purchaseTickId: purchaseTicks.get(symbol) as number,
        purchasePrice: "100",
        purchaseTickTime: new Date(expiresAt.getTime() - 60_000),
        purchasedAt: new Date(expiresAt.getTime() - 60_000),
        expiresAt,
      };
    });
    const orders = await db.insert(optionOrders).values(rows).returning();
    const entries: EntryInput[] = orders.map((o) => {
      const cost = new MoneyDecimal(o.amount).plus(o.fee).toFixed();
      return {
        idempotencyKey: `option.buy:${o.id}`,
        kind: "option.buy",
        reference: { type: "option_order", id: o.id },
        postings: [
          {
            account: { userId: o.userId, book: "real", wallet: "option", currency: "USDT" },
            amount: `-${cost}`,
          },
          { account: { system: "options_house", book: "real", currency: "USDT" }, amount: cost },
        ],
      };
    });
    await postEntries(db, entries);
    ids.push(...orders.map((o) => o.id));
  }
  return ids;
}

/** A tick per instrument every 100 ms around 100, so half the orders win. */
function startFeed(db: Db) {
  let k = 0;
  let writing = Promise.resolve();
  const timer = setInterval(() => {
    const time = Date.now();
    const price = 100 + ((k++ % 7) - 3) * 0.25;
    writing = writing
      .then(() =>
        recordTicks(
          db,
          SYMBOLS.map((symbol) => ({ symbol, price: price.toFixed(2), time })),
        ),
      )
      .then(() => {});
  }, 100);
  return async () => {
    clearInterval(timer);
    await writing;
  };
}

const stats = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return { median: percentile(sorted, 50), min: sorted[0] ?? Number.NaN, max: sorted.at(-1) ?? Number.NaN };
};
const round = (v: number, d = 0) => Number(v.toFixed(d));

export async function run(): Promise<BenchResult> {
  await freshPlatformDatabase(DATABASE_URL);
  const { db, pool, close } = createDb(DATABASE_URL, { max: 10 });
  const prefix = `benchopt${Date.now()}`;
  const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
  const subscriber = new Redis(REDIS_URL);
  let worker: ChildProcess | null = null;
  const loadBefore = os.loadavg();
  try {
    const buyers = await createBuyers(db);
    const seedTicks = await recordTicks(
      db,
      SYMBOLS.map((symbol) => ({ symbol, price: "100", time: Date.now() - 3_600_000 })),
    );
    const purchaseTicks = new Map(seedTicks.map((t) => [t.symbol, t.id]));

    // Capacity: a backlog of expired orders (their ticks recorded), drained by each way in turn.
    const capacity: Record<"setBased" | "perOrder", { perSec: number[]; perCpuSec: number[] }> = {
      setBased: { perSec: [], perCpuSec: [] },
      perOrder: { perSec: [], perCpuSec: [] },
    };
    for (let r = 0; r < REPEATS; r++) {
      for (const way of ["setBased", "perOrder"] as const) {
        const expired = new Date(Date.now() - 1000);
        const ids = await writeOrders(
          db,
          buyers,
          Array.from({ length: BACKLOG }, () => expired),
          purchaseTicks,
        );
        await recordTicks(
          db,
          SYMBOLS.map((symbol) => ({ symbol, price: "100.5", time: expired.getTime() })),
        );
        const cpu = selfCpu();
        const started = performance.now();
        if (way === "setBased") {
          await settleDueOptions(db, new Date());
        } else {
          let next = 0;
          await Promise.all(
            Array.from({ length: 8 }, async () => {
              while (next < ids.length) {
                await settleOption(db, ids[next++] as number, new Date());
              }
            }),
          );
        }
        const seconds = (performance.now() - started) / 1000;
        capacity[way].perSec.push(BACKLOG / seconds);
        capacity[way].perCpuSec.push(BACKLOG / (selfCpu() - cpu));
        const [open] = (
          await pool.query<{ n: number }>(
            "select count(*)::int as n from option_orders where status = 'open'",
          )
        ).rows;
        if (Number(open?.n) !== 0) {
          throw new Error(`${way}: ${open?.n} orders left open`);
        }
      }
    }

    // The real worker, settling through its slot jobs while the feed ticks.
    worker = spawn(process.execPath, ["--import", "tsx", "apps/worker/src/main.ts"], {
      cwd: root,
      env: {
        ...process.env,
        DATABASE_URL,
        REDIS_URL,
        REDIS_PREFIX: prefix,
        WORKER_ROLES: "option-settlement",
        LOG_LEVEL: "warn",
      },
      stdio: ["ignore", "ignore", "inherit"],
    });
    const announced = new Map<number, number>();
    await subscriber.psubscribe(`${prefix}:md:user:*`);
    subscriber.on("pmessage", (_pattern, _channel, message) => {
      const { data } = JSON.parse(message) as { data: { type: string; order: { id: number } } };
      if (data.type === "option.order") {
        announced.set(data.order.id, Date.now());
      }
    });
    const stopFeed = startFeed(db);
    const scheduler = createSettlementScheduler(redis, prefix);
    const workerPid = worker.pid as number;
    /**
     * Orders expiring `offsets` ms after a start 1.5 s ahead, scheduled as their purchases schedule
     * them; waits for every announcement. The orders are written first with expiries an hour out
     * and then moved to the start, so writing them does not eat into the measured time.
     */
    const settleThroughWorker = async (offsets: number[]) => {
      const parked = Date.now() + 3_600_000;
      const ids = await writeOrders(
        db,
        buyers,
        offsets.map((ms) => new Date(parked + ms)),
        purchaseTicks,
      );
      const start = Date.now() + 1500;
      await pool.query(
        "update option_orders set expires_at = expires_at - make_interval(secs => $1::float8 / 1000) where id = any($2)",
        [parked - start, ids],
      );
      const expiries = offsets.map((ms) => new Date(start + ms));
      const slots = [...new Set(expiries.map((e) => settlementDueAt(e)))];
      await Promise.all(slots.map((dueAt) => scheduler.schedule(new Date(dueAt))));
      const expiresAt = new Map(ids.map((id, i) => [id, (expiries[i] as Date).getTime()]));
      const deadline = Math.max(...expiresAt.values()) + 120_000;
      while (ids.some((id) => !announced.has(id))) {
        if (Date.now() > deadline) {
          throw new Error("settlements not announced within two minutes");
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const delays = ids.map((id) => (announced.get(id) as number) - (expiresAt.get(id) as number));
      return {
        delays: delays.sort((a, b) => a - b),
        start,
        last: Math.max(...ids.map((id) => announced.get(id) as number)),
      };
    };
    const steady: { p50: number[]; p99: number[]; max: number[]; perWorkerCpuSec: number[] } = {
      p50: [],
      p99: [],
      max: [],
      perWorkerCpuSec: [],
    };
    const burst: { lastMs: number[]; p99: number[] } = { lastMs: [], p99: [] };
    // Warm-up: the worker's first jobs load its code.
    await settleThroughWorker(Array.from({ length: 200 }, (_, i) => i));
    for (let r = 0; r < REPEATS; r++) {
      const total = STEADY_RATE * STEADY_SECONDS;
      const cpu = processCpuSeconds(workerPid);
      const { delays } = await settleThroughWorker(
        Array.from({ length: total }, (_, i) => Math.floor((i * 1000) / STEADY_RATE)),
      );
      steady.p50.push(percentile(delays, 50));
      steady.p99.push(percentile(delays, 99));
      steady.max.push(delays.at(-1) as number);
      steady.perWorkerCpuSec.push(total / (processCpuSeconds(workerPid) - cpu));

      const {
        delays: burstDelays,
        start,
        last,
      } = await settleThroughWorker(Array.from({ length: BURST }, (_, i) => i % 1000));
      burst.p99.push(percentile(burstDelays, 99));
      // From the end of the second the orders expire in to the last announcement.
      burst.lastMs.push(last - (start + 1000));
    }
    await stopFeed();
    await scheduler.close();
    const reconciled = (await reconcileLedger(db)).ok;
    if (!reconciled) {
      throw new Error("the ledger does not reconcile");
    }
    const setBased = stats(capacity.setBased.perSec);
    const perOrder = stats(capacity.perOrder.perSec);
    const p99 = stats(steady.p99);
    const figures = {
      repeats: REPEATS,
      loadAverage: {
        before: loadBefore.map((v) => round(v, 2)),
        after: os.loadavg().map((v) => round(v, 2)),
      },
      settlementsPerSec: round(setBased.median),
      capacity: {
        backlog: BACKLOG,
        setBased: {
          perSec: { median: round(setBased.median), min: round(setBased.min), max: round(setBased.max) },
          perCpuSecOfThisProcess: round(stats(capacity.setBased.perCpuSec).median),
        },
        perOrderPeer: {
          perSec: { median: round(perOrder.median), min: round(perOrder.min), max: round(perOrder.max) },
          perCpuSecOfThisProcess: round(stats(capacity.perOrder.perCpuSec).median),
        },
        ratio: round(setBased.median / perOrder.median, 1),
      },
      latencyMs: {
        p50: round(stats(steady.p50).median),
        p99: round(p99.median),
        p99Range: [p99.min, p99.max],
      },
      steady: {
        offeredPerSec: STEADY_RATE,
        seconds: STEADY_SECONDS,
        maxMs: stats(steady.max),
        settlementsPerWorkerCpuSec: round(stats(steady.perWorkerCpuSec).median),
      },
      burst: {
        orders: BURST,
        lastSettledAfterSecondMs: stats(burst.lastMs),
        p99Ms: stats(burst.p99),
      },
      reconciled,
    };
    return {
      figures,
      summary: [
        `load average before ${figures.loadAverage.before.join(" ")}, after ${figures.loadAverage.after.join(" ")}`,
        `capacity (backlog of ${BACKLOG}, ${REPEATS} runs each, alternating): set-based ${round(setBased.median)}/s (${round(setBased.min)}–${round(setBased.max)}), one transaction per order ${round(perOrder.median)}/s (${round(perOrder.min)}–${round(perOrder.max)}); ratio ${figures.capacity.ratio}×`,
        `steady ${STEADY_RATE}/s for ${STEADY_SECONDS} s through the worker: expiry → announced p50 ${figures.latencyMs.p50} ms, p99 ${figures.latencyMs.p99} ms (${p99.min}–${p99.max}); ${figures.steady.settlementsPerWorkerCpuSec} settlements per worker CPU-second`,
        `burst of ${BURST} in one second: last settled ${stats(burst.lastMs).median} ms after the second ended (${stats(burst.lastMs).min}–${stats(burst.lastMs).max})`,
        `ledger reconciles: ${reconciled}`,
      ],
    };
  } finally {
    worker?.kill("SIGTERM");
    if (worker) {
      await new Promise((resolve) => worker?.once("exit", resolve));
    }
    subscriber.disconnect();
    redis.disconnect();
    await close();
  }
}
