import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { createDb } from "@northstar/domain/db";
import { createSession } from "@northstar/domain/identity";
import { mulberry32 } from "@northstar/shared/random";
import { Redis } from "ioredis";
import { createTrader } from "../../packages/domain/src/spot/testing.ts";
import { checkSpotLedger } from "../../packages/domain/src/spot/workload.ts";
import { freshPlatformDatabase } from "./database.ts";
import { seedHistory } from "./history.ts";
import { closedLoop, openLoop } from "./order-load.ts";
import { processCpuSeconds } from "./process-cpu.ts";
import { sized } from "./smoke.ts";
import { matcherCapacity } from "./spot-matcher-shards.ts";
import { perOrder, startSqlCounts } from "./sql-counts.ts";
import { type BenchResult, percentile, spread } from "./types.ts";

/*
 * Spot orders end to end: HTTP requests to one real API process, compiled as production runs it (tRPC `spot.place`), which checks
 * the order, holds the funds through the ledger, records the order and appends the matcher's command;
 * a real worker process runs the matcher, which fills and settles them in PostgreSQL. Reported: the
 * orders per second the API sustains with CONCURRENCY requests in flight and the latency from request
 * to acknowledgement (the answer), then the latency at two fixed offered rates, and how long the matcher
 * takes to work off everything accepted. The load generator runs on the same two cores.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const DATABASE_URL =
  process.env.BENCH_SPOT_DATABASE_URL ??
  `postgresql://postgres@127.0.0.1:5432/northstar_bench_spot${sized("", "_smoke")}`;
const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const PORT = Number(process.env.BENCH_SPOT_PORT ?? sized(3901, 3911));
const TRADERS = sized(200, 10);
/** Other users of a running platform, whose finished orders and fills fill the tables (history.ts). */
const HISTORY_USERS = sized(20_000, 100);
const CONCURRENCY = Number(process.env.BENCH_SPOT_CONCURRENCY ?? sized(64, 8));
const SECONDS = Number(process.env.BENCH_SPOT_SECONDS ?? sized(15, 2));
const TARGET_RATE = Number(process.env.BENCH_SPOT_RATE ?? 5000);
/** `BENCH_SPOT_QUICK=1`: the closed loop alone (no open loops, no matcher-capacity rounds), to iterate. */
const QUICK = process.env.BENCH_SPOT_QUICK === "1";

/**
 * `BENCH_SPOT_BASELINE=<checkout>`: the closed loop also runs against another checkout of the
 * platform (the code before a change, with its dependencies installed), alternating with this one,
 * BENCH_SPOT_ROUNDS times each, every run on a fresh database, for the before/after figures.
 */
const BASELINE = process.env.BENCH_SPOT_BASELINE;
const ROUNDS = Number(process.env.BENCH_SPOT_ROUNDS ?? 3);

/**
 * Compiles the checkout's server (left alone when its output is from the same sources) so the API
 * and the worker run as production runs them: compiled JavaScript under plain node.
 */
function buildServer(tree: string) {
  const built = spawnSync(process.execPath, ["scripts/build-server.mjs"], { cwd: tree, encoding: "utf8" });
  if (built.status !== 0) {
    throw new Error(`server build failed: ${built.stderr}`);
  }
}

/**
 * The node options production starts a compiled file of that checkout with: its scripts/compiled.mjs
 * says (`compiledNodeOptions`; a checkout from before it has only COMPILED_NODE_OPTIONS).
 */
async function productionNodeOptions(tree: string, compiled: string): Promise<string[]> {
  const module = (await import(pathToFileURL(path.join(tree, "scripts/compiled.mjs")).href)) as {
    COMPILED_NODE_OPTIONS: string[];
    compiledNodeOptions?: (compiled: string) => string[];
  };
  return module.compiledNodeOptions?.(compiled) ?? module.COMPILED_NODE_OPTIONS;
}

async function start(tree: string, compiled: string, env: Record<string, string>): Promise<ChildProcess> {
  const profile = process.env.BENCH_CPU_PROFILE
    ? [`--cpu-prof`, `--cpu-prof-dir=${process.env.BENCH_CPU_PROFILE}`]
    : [];
  return spawn(process.execPath, [...profile, ...(await productionNodeOptions(tree, compiled)), compiled], {
    cwd: tree,
    env: { ...process.env, DATABASE_URL, REDIS_URL, LOG_LEVEL: "warn", ...env },
    stdio: ["ignore", "ignore", "inherit"],
  });
}

/**
 * The CPU each part spends per order acknowledged during `work`: the API, the worker, the database
 * backends of the benchmark's database and this load generator, in milliseconds. Steadier than
 * orders per second on a shared machine, and it says where the time goes.
 */
async function cpuPerOrder<T extends { latencies: number[] }>(
  db: ReturnType<typeof createDb>["db"],
  pids: { api: number; worker: number },
  work: () => Promise<T>,
) {
  const backends = async () =>
    (
      await db.execute<{ pid: number }>(
        "select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()",
      )
    ).rows.map((r) => Number(r.pid));
  const pidsBefore = await backends();
  const before = [pids.api, pids.worker, ...pidsBefore].map(processCpuSeconds);
  const self = process.cpuUsage();
  const value = await work();
  const used = process.cpuUsage(self);
  const after = [pids.api, pids.worker, ...pidsBefore].map(processCpuSeconds);
  const delta = after.map((v, i) => Math.max(0, v - (before[i] ?? 0)));
  const per = (seconds: number) =>
    Number(((seconds * 1000) / Math.max(1, value.latencies.length)).toFixed(3));
  return {
    value,
    cpuMsPerOrder: {
      api: per(delta[0] ?? 0),
      worker: per(delta[1] ?? 0),
      postgres: per(delta.slice(2).reduce((a, b) => a + b, 0)),
      loadGenerator: per((used.user + used.system) / 1e6),
    },
  };
}

const summary = (run: { latencies: number[]; failed: number; seconds: number }) => {
  const sorted = Float64Array.from(run.latencies).sort();
  return {
    ordersPerSec: Math.round(run.latencies.length / run.seconds),
    accepted: run.latencies.length,
    failed: run.failed,
    latencyMs: {
      p50: Number(percentile(sorted, 50).toFixed(1)),
      p99: Number(percentile(sorted, 99).toFixed(1)),
      max: Number((sorted[sorted.length - 1] ?? Number.NaN).toFixed(1)),
    },
  };
};

/** The API and a spot-matcher worker of the checkout at `tree`, answering. */
async function startPlatform(tree: string, prefix: string) {
  buildServer(tree);
  const api = await start(tree, "apps/api/dist/server.js", {
    PORT: String(PORT),
    HOST: "127.0.0.1",
    REDIS_PREFIX: prefix,
    WEB_DIST: "",
  });
  const worker = await start(tree, "apps/worker/dist/main.js", {
    REDIS_PREFIX: prefix,
    WORKER_ROLES: "spot-matcher",
  });
  const stop = async () => {
    for (const child of [api, worker]) {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGTERM");
        await once(child, "exit");
      }
    }
  };
  try {
    for (let i = 0; ; i++) {
      try {
        if ((await fetch(`http://127.0.0.1:${PORT}/health`)).ok) {
          break;
        }
      } catch {}
      // Up to 90 s: a busy machine can take most of a minute to start it.
      if (i > 900) {
        throw new Error("API did not start in 90 s");
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { api, worker, stop };
}

async function createTokens(db: ReturnType<typeof createDb>["db"]): Promise<string[]> {
  const tokens: string[] = [];
  for (let i = 0; i < TRADERS; i++) {
    const trader = await createTrader(db, { USDT: "100000000", BTC: "1000", ETH: "20000" });
    tokens.push(await createSession(db, trader.id));
  }
  return tokens;
}

/** A warm-up, then the measured closed loop: its orders, latency, CPU and SQL per order. */
async function measuredClosedLoop(
  db: ReturnType<typeof createDb>["db"],
  platform: { api: ChildProcess; worker: ChildProcess },
  tokens: string[],
  random: () => number,
) {
  await closedLoop(PORT, CONCURRENCY, tokens, sized(3, 1), random); // warm-up: JIT, pools, account-id caches
  const stopCounts = await startSqlCounts(db);
  const measured = await cpuPerOrder(
    db,
    { api: platform.api.pid ?? 0, worker: platform.worker.pid ?? 0 },
    () => closedLoop(PORT, CONCURRENCY, tokens, SECONDS, random),
  );
  const sqlCounts = await stopCounts();
  if (process.env.BENCH_SPOT_STATEMENTS) {
    console.log(JSON.stringify(sqlCounts.topStatements, null, 1));
  }
  return {
    ...summary(measured.value),
    cpuMsPerOrder: measured.cpuMsPerOrder,
    sqlPerOrder: perOrder(sqlCounts, measured.value.latencies.length),
  };
}

type ClosedLoopFigures = Awaited<ReturnType<typeof measuredClosedLoop>>;

const cpuSum = (c: ClosedLoopFigures["cpuMsPerOrder"]) =>
  Number((c.api + c.worker + c.postgres + c.loadGenerator).toFixed(3));

/** The closed loop alone, this checkout and the baseline's taking turns (which goes first alternates). */
async function versusBaseline(baseline: string, redis: Redis) {
  const runs: { tree: "baseline" | "current"; round: number; load1m: number; closed: ClosedLoopFigures }[] =
    [];
  for (let round = 0; round < ROUNDS; round++) {
    const order: ("baseline" | "current")[] = round % 2 ? ["current", "baseline"] : ["baseline", "current"];
    for (const tree of order) {
      await freshPlatformDatabase(DATABASE_URL, tree === "baseline" ? baseline : root);
      const { db, close } = createDb(DATABASE_URL, { max: 4 });
      const prefix = `benchspotvs${Date.now()}`;
      try {
        const tokens = await createTokens(db);
        await seedHistory(db, HISTORY_USERS);
        const platform = await startPlatform(tree === "baseline" ? baseline : root, prefix);
        try {
          const load1m = os.loadavg()[0] ?? 0;
          const closed = await measuredClosedLoop(db, platform, tokens, mulberry32(5 + round));
          runs.push({ tree, round, load1m: Number(load1m.toFixed(2)), closed });
          console.log(
            `${tree} round ${round}: ${closed.ordersPerSec} orders/s, CPU ms/order ${cpuSum(closed.cpuMsPerOrder)} ${JSON.stringify(closed.cpuMsPerOrder)}, statements/order ${closed.sqlPerOrder.statements}, rows written/order ${(closed.sqlPerOrder.rowsInserted + closed.sqlPerOrder.rowsUpdated + closed.sqlPerOrder.rowsDeleted).toFixed(2)}`,
          );
        } finally {
          await platform.stop();
        }
      } finally {
        const keys = await redis.keys(`${prefix}*`);
        if (keys.length) {
          await redis.del(...keys);
        }
        await close();
      }
    }
  }
  const of = (tree: "baseline" | "current") => {
    const mine = runs.filter((r) => r.tree === tree).map((r) => r.closed);
    const parts = ["api", "worker", "postgres", "loadGenerator"] as const;
    return {
      cpuMsPerOrder: {
        sum: spread(mine.map((c) => cpuSum(c.cpuMsPerOrder))),
        ...Object.fromEntries(parts.map((p) => [p, spread(mine.map((c) => c.cpuMsPerOrder[p]))])),
      },
      ordersPerSec: spread(mine.map((c) => c.ordersPerSec)),
      statementsPerOrder: spread(mine.map((c) => c.sqlPerOrder.statements ?? Number.NaN)),
      transactionsPerOrder: spread(mine.map((c) => c.sqlPerOrder.transactions)),
      rowsInsertedPerOrder: spread(mine.map((c) => c.sqlPerOrder.rowsInserted)),
      rowsUpdatedPerOrder: spread(mine.map((c) => c.sqlPerOrder.rowsUpdated)),
      rowsByTablePerOrder: mine[0]?.sqlPerOrder.byTable,
    };
  };
  const before = of("baseline");
  const after = of("current");
  return {
    method: `closed loop of ${CONCURRENCY} in flight for ${SECONDS} s after a warm-up, ${ROUNDS} rounds, the two checkouts alternating (first one alternates), each run on a fresh database; CPU from /proc of the API, the worker and the database's backends, and this process`,
    baseline: before,
    current: after,
    cpuRatio: Number((after.cpuMsPerOrder.sum.median / before.cpuMsPerOrder.sum.median).toFixed(3)),
    runs: runs.map((r) => ({
      tree: r.tree,
      round: r.round,
      load1m: r.load1m,
      ordersPerSec: r.closed.ordersPerSec,
      cpuMsPerOrder: r.closed.cpuMsPerOrder,
      statementsPerOrder: r.closed.sqlPerOrder.statements,
    })),
  };
}

export async function run(): Promise<BenchResult> {
  await freshPlatformDatabase(DATABASE_URL, root);
  const prefix = `benchspot${Date.now()}`;
  const redis = new Redis(REDIS_URL);
  const connection = createDb(DATABASE_URL, { max: 4 });
  const { db } = connection;
  let dbClosed = false;
  const close = async () => {
    if (!dbClosed) {
      dbClosed = true;
      await connection.close();
    }
  };
  const tokens = await createTokens(db);
  const history = await seedHistory(db, HISTORY_USERS);
  const platform = await startPlatform(root, prefix);
  try {
    const random = mulberry32(5);
    const closed = await measuredClosedLoop(db, platform, tokens, random);
    // Fixed offered rates at half and at four fifths of what the closed loop sustained.
    const openLoops = [];
    for (const share of QUICK ? [] : [0.5, 0.8]) {
      const rate = Math.min(TARGET_RATE, Math.floor(closed.ordersPerSec * share));
      openLoops.push({ rate, ...summary(await openLoop(PORT, tokens, rate, Math.min(SECONDS, 10), random)) });
    }
    // The matcher works off what the API accepted; the time it needs after the load stops.
    const drainStarted = performance.now();
    for (;;) {
      const pending = await db.execute<{ n: number }>(
        "select count(*)::int as n from spot_orders where status = 'pending'",
      );
      if (Number(pending.rows[0]?.n) === 0) {
        break;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    const drainSeconds = Number(((performance.now() - drainStarted) / 1000).toFixed(1));
    const counts = await db.execute<{ orders: number; trades: number }>(
      "select (select count(*) from spot_orders)::int as orders, (select count(*) from spot_trades)::int as trades",
    );
    const ledger = await checkSpotLedger(db);
    await platform.stop();
    // With the API and its matcher stopped: the matchers alone, in one and in two processes.
    const shards = QUICK
      ? { summary: [], figures: null }
      : await matcherCapacity({ db, redis, databaseUrl: DATABASE_URL, redisUrl: REDIS_URL });
    // Its runs recreate the database: this run's connections go first.
    await close();
    const versus = BASELINE ? await versusBaseline(BASELINE, redis) : null;
    return {
      summary: [
        `closed loop, ${CONCURRENCY} in flight, ${SECONDS} s: ${closed.ordersPerSec} orders/s acknowledged, p50 ${closed.latencyMs.p50} ms, p99 ${closed.latencyMs.p99} ms, max ${closed.latencyMs.max} ms, ${closed.failed} failed`,
        `CPU per order in the closed loop (ms): ${cpuSum(closed.cpuMsPerOrder)} ${JSON.stringify(closed.cpuMsPerOrder)}`,
        `SQL per order in the closed loop: ${JSON.stringify(closed.sqlPerOrder)}`,
        ...openLoops.map(
          (open) =>
            `open loop at ${open.rate} orders/s: ${open.ordersPerSec} orders/s, p50 ${open.latencyMs.p50} ms, p99 ${open.latencyMs.p99} ms, max ${open.latencyMs.max} ms, ${open.failed} failed`,
        ),
        `matcher: ${counts.rows[0]?.orders} orders, ${counts.rows[0]?.trades} fills; ${drainSeconds} s after the load to take every accepted order`,
        `ledger after the run: ${JSON.stringify(ledger)}`,
        ...shards.summary,
        ...(versus
          ? [
              `versus the baseline (${ROUNDS} alternating rounds): CPU ms/order median ${versus.baseline.cpuMsPerOrder.sum.median} → ${versus.current.cpuMsPerOrder.sum.median} (×${versus.cpuRatio}), statements/order ${versus.baseline.statementsPerOrder.median} → ${versus.current.statementsPerOrder.median}, rows inserted/order ${versus.baseline.rowsInsertedPerOrder.median} → ${versus.current.rowsInsertedPerOrder.median}, rows updated/order ${versus.baseline.rowsUpdatedPerOrder.median} → ${versus.current.rowsUpdatedPerOrder.median}`,
            ]
          : []),
      ],
      figures: {
        traders: TRADERS,
        history,
        concurrency: CONCURRENCY,
        closedLoop: { ...closed, cpuMsPerOrderSum: cpuSum(closed.cpuMsPerOrder) },
        openLoops,
        drainSeconds,
        counts: counts.rows[0],
        ledger,
        matcherShards: shards.figures,
        ...(versus ? { versusBaseline: versus } : {}),
      },
    };
  } finally {
    await platform.stop();
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) {
      await redis.del(...keys);
    }
    redis.disconnect();
    await close();
  }
}
