import { spawn } from "node:child_process";
import { once } from "node:events";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createDb } from "@northstar/domain/db";
import type { Redis } from "ioredis";
import {
  checkSpotLedger,
  createTraders,
  runWorkload,
  type WorkloadMarket,
} from "../../packages/domain/src/spot/workload.ts";
import { until } from "../../packages/domain/src/test-support/index.ts";
import { processCpuSeconds } from "./process-cpu.ts";
import { sized } from "./smoke.ts";

/*
 * Matcher capacity with one and with two matcher processes. Orders (with cancels and market-maker
 * ladders) on four markets, two in each of two shards, are placed through the order service while
 * the matchers stand by (their leases are held by the benchmark); then the leases are let go and
 * the time until every order is taken is measured, with the CPU the worker processes and the
 * database's backends spent meanwhile. Configurations run alternately, three times each; the
 * machine's load average is recorded with each run (two cores, shared).
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const ORDERS = Number(process.env.BENCH_SHARDS_ORDERS ?? sized(4000, 200));
const ROUNDS = sized(3, 1);
/**
 * Long enough that a matcher rebuilding big books on a loaded machine keeps its lease (with 1.5 s,
 * as the failover tests use, a full-size run under a load average of 30 stalled); a standby retries
 * every fifth of it, so a run's clock may include up to a second before the matchers start.
 */
const TTL_MS = 5000;
const MARKETS: WorkloadMarket[] = [
  { symbol: "BTCUSDT", mid: 60000, tick: "0.01", lot: "0.00001" },
  { symbol: "ETHUSDT", mid: 3000, tick: "0.01", lot: "0.0001" },
  { symbol: "BCHUSDT", mid: 520.5, tick: "0.1", lot: "0.001" },
  { symbol: "ETCUSDT", mid: 13.05, tick: "0.001", lot: "0.01" },
];
const CONFIGS = [
  { name: "1 process, 1 shard", processes: 1, shards: 1 },
  { name: "2 processes, 2 shards", processes: 2, shards: 2 },
] as const;

type Db = ReturnType<typeof createDb>["db"];

function startWorker(databaseUrl: string, redisUrl: string, prefix: string, shards: number, max: number) {
  const child = spawn(process.execPath, ["--import", "tsx", "apps/worker/src/main.ts"], {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      REDIS_URL: redisUrl,
      REDIS_PREFIX: prefix,
      WORKER_ROLES: "spot-matcher",
      LEASE_TTL_MS: String(TTL_MS),
      SPOT_MATCHER_SHARDS: String(shards),
      SPOT_MATCHER_MAX_SHARDS: String(max),
      LOG_LEVEL: "warn",
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  return { child, output: () => output };
}

async function backends(db: Db) {
  const rows = await db.execute<{ pid: number }>(
    "select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()",
  );
  return rows.rows.map((r) => Number(r.pid));
}

/** One measured run of one configuration, on a Redis prefix of its own. */
async function measure(
  config: (typeof CONFIGS)[number],
  round: number,
  deps: { db: Db; redis: Redis; databaseUrl: string; redisUrl: string },
) {
  const prefix = `benchshards${Date.now()}${round}`;
  const leaseKeys = Array.from({ length: config.shards }, (_, i) => `${prefix}:lease:spot-matcher:${i}`);
  // Held by the benchmark while the workers start and the orders are placed.
  for (const key of leaseKeys) {
    await deps.redis.set(key, "bench", "PX", 600_000);
  }
  const workers = Array.from({ length: config.processes }, () =>
    startWorker(
      deps.databaseUrl,
      deps.redisUrl,
      prefix,
      config.shards,
      Math.ceil(config.shards / config.processes),
    ),
  );
  try {
    await until(() => workers.every((w) => w.output().includes("started")), "the workers to start", {
      timeoutMs: 120_000,
      intervalMs: 20,
    });
    // A connection of its own: the order service keeps one intake (and its prefix) per database handle.
    const own = createDb(deps.databaseUrl, { max: 4 });
    const db = own.db;
    const traders = await createTraders(db, 20, {
      USDT: "100000000",
      BTC: "1000",
      ETH: "20000",
      BCH: "50000",
      ETC: "2000000",
    });
    const work = await runWorkload({ db, redis: deps.redis, prefix }, traders, ORDERS, 7 + round, {
      quoteEvery: 40,
      markets: MARKETS,
    });
    await own.close();
    const ids = work.orders.map((o) => o.id);
    const commands = (
      await Promise.all(MARKETS.map((m) => deps.redis.xlen(`${prefix}:spot:cmd:${m.symbol}`)))
    ).reduce((a, b) => a + b, 0);
    const pids = workers.map((w) => w.child.pid ?? 0);
    const loadBefore = os.loadavg()[0] ?? 0;
    const pg = await backends(deps.db);
    const cpuBefore = [...pids, ...pg].map(processCpuSeconds);
    const started = performance.now();
    await deps.redis.del(...leaseKeys);
    await until(
      async () => {
        const left = await deps.db.execute<{ n: number }>(
          `select count(*)::int as n from spot_orders where status = 'pending' and id = any('{${ids.join(",")}}'::bigint[])`,
        );
        return Number(left.rows[0]?.n) === 0;
      },
      "the matchers to take every order",
      { timeoutMs: 120_000, intervalMs: 20 },
    );
    const seconds = (performance.now() - started) / 1000;
    const cpuAfter = [...pids, ...pg].map(processCpuSeconds);
    const used = cpuAfter.map((v, i) => Math.max(0, v - (cpuBefore[i] ?? 0)));
    // Backends the matchers opened after the start did all their work in the window.
    const opened = (await backends(deps.db)).filter((pid) => !pg.includes(pid));
    const workerCpu = used.slice(0, pids.length).reduce((a, b) => a + b, 0);
    const postgresCpu =
      used.slice(pids.length).reduce((a, b) => a + b, 0) +
      opened.map(processCpuSeconds).reduce((a, b) => a + b, 0);
    const held = workers.map(
      (w) => [...w.output().matchAll(new RegExp(`took lease ${prefix}:lease:spot-matcher:\\d+`, "g"))].length,
    );
    return {
      config: config.name,
      round,
      orders: ids.length,
      commands,
      seconds: round3(seconds),
      ordersPerSec: Math.round(ids.length / seconds),
      commandsPerSec: Math.round(commands / seconds),
      workerCpuSeconds: round3(workerCpu),
      postgresCpuSeconds: round3(postgresCpu),
      ordersPerWorkerCpuSecond: Math.round(ids.length / Math.max(0.01, workerCpu)),
      ordersPerCpuSecond: Math.round(ids.length / Math.max(0.01, workerCpu + postgresCpu)),
      shardsHeldPerProcess: held,
      loadAverage1m: { before: round3(loadBefore), after: round3(os.loadavg()[0] ?? 0) },
    };
  } finally {
    for (const w of workers) {
      w.child.kill("SIGTERM");
    }
    await Promise.all(
      workers.map((w) =>
        w.child.exitCode === null && w.child.signalCode === null ? once(w.child, "exit") : null,
      ),
    );
    const keys = await deps.redis.keys(`${prefix}*`);
    if (keys.length) {
      await deps.redis.del(...keys);
    }
  }
}

const round3 = (n: number) => Number(n.toFixed(3));
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
};

/** The matcher capacity figures: every run, and per configuration the median and range of each rate. */
export async function matcherCapacity(deps: { db: Db; redis: Redis; databaseUrl: string; redisUrl: string }) {
  const runs: Awaited<ReturnType<typeof measure>>[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    for (const config of CONFIGS) {
      runs.push(await measure(config, round, deps));
    }
  }
  const ledger = await checkSpotLedger(deps.db);
  const byConfig = CONFIGS.map((config) => {
    const mine = runs.filter((r) => r.config === config.name);
    const stat = (pick: (r: (typeof runs)[number]) => number) => {
      const values = mine.map(pick);
      return { median: median(values), min: Math.min(...values), max: Math.max(...values) };
    };
    return {
      config: config.name,
      ordersPerSec: stat((r) => r.ordersPerSec),
      commandsPerSec: stat((r) => r.commandsPerSec),
      ordersPerWorkerCpuSecond: stat((r) => r.ordersPerWorkerCpuSecond),
      ordersPerCpuSecond: stat((r) => r.ordersPerCpuSecond),
      loadAverage1m: stat((r) => r.loadAverage1m.before),
    };
  });
  return {
    summary: [
      ...byConfig.map(
        (c) =>
          `matcher capacity, ${c.config}: ${c.ordersPerSec.median} orders/s (${c.ordersPerSec.min}–${c.ordersPerSec.max}), ${c.commandsPerSec.median} commands/s, ${c.ordersPerWorkerCpuSecond.median} orders per worker CPU-second, ${c.ordersPerCpuSecond.median} per worker+PostgreSQL CPU-second; load ${c.loadAverage1m.min}–${c.loadAverage1m.max}`,
      ),
      `ledger after the matcher runs: ${JSON.stringify(ledger)}`,
    ],
    figures: {
      method: `${ORDERS} orders per run (with cancels and market-maker ladders) on ${MARKETS.map((m) => m.symbol).join(", ")}, placed while the matchers stand by, then taken; ${ROUNDS} alternating rounds; CPU from /proc of the worker processes and the database's backends`,
      byConfig,
      runs,
      ledger,
    },
  };
}
