import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createDb } from "@northstar/domain/db";
import { createSession } from "@northstar/domain/identity";
import { mulberry32 } from "@northstar/shared/random";
import { Redis } from "ioredis";
import { createTrader } from "../../packages/domain/src/spot/testing.ts";
import { checkSpotLedger } from "../../packages/domain/src/spot/workload.ts";
import { recreateDatabase } from "./database.ts";
import { processCpuSeconds } from "./process-cpu.ts";
import { sized } from "./smoke.ts";
import { perOrder, startSqlCounts } from "./sql-counts.ts";
import { matcherCapacity } from "./spot-matcher-shards.ts";
import { type BenchResult, percentile } from "./types.ts";

/*
 * Spot orders end to end: HTTP requests to one real API process (tRPC `spot.place`), which checks
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
const CONCURRENCY = Number(process.env.BENCH_SPOT_CONCURRENCY ?? sized(64, 8));
const SECONDS = Number(process.env.BENCH_SPOT_SECONDS ?? sized(15, 2));
const TARGET_RATE = Number(process.env.BENCH_SPOT_RATE ?? 5000);
/** `BENCH_SPOT_QUICK=1`: the closed loop alone (no open loops, no matcher-capacity rounds), to iterate. */
const QUICK = process.env.BENCH_SPOT_QUICK === "1";

async function freshDatabase() {
  await recreateDatabase(DATABASE_URL);
  const setup = spawnSync(process.execPath, ["--import", "tsx", "apps/api/src/cli/setup.ts"], {
    cwd: root,
    env: { ...process.env, DATABASE_URL },
    encoding: "utf8",
  });
  if (setup.status !== 0) {
    throw new Error(`setup failed: ${setup.stderr}`);
  }
}

function start(script: string, env: Record<string, string>): ChildProcess {
  const profile = process.env.BENCH_CPU_PROFILE
    ? [`--cpu-prof`, `--cpu-prof-dir=${process.env.BENCH_CPU_PROFILE}`]
    : [];
  return spawn(process.execPath, [...profile, "--import", "tsx", script], {
    cwd: root,
    env: { ...process.env, DATABASE_URL, REDIS_URL, LOG_LEVEL: "warn", ...env },
    stdio: ["ignore", "ignore", "inherit"],
  });
}

/** A limit order around 60000 (BTCUSDT) or 3000 (ETHUSDT): 30% cross the spread. */
function orderBody(random: () => number) {
  const btc = random() < 0.5;
  const mid = btc ? 60000 : 3000;
  const side = random() < 0.5 ? "buy" : "sell";
  const crossing = random() < 0.3;
  const offset = Math.floor(random() * mid * 0.005 * 100) / 100;
  const away = crossing ? -offset : offset + 0.01;
  const price = (side === "buy" ? mid - away : mid + away).toFixed(2);
  const lots = 1 + Math.floor(random() * 200);
  const quantity = btc ? (lots / 100000).toFixed(5) : (lots / 10000).toFixed(4);
  return JSON.stringify({ symbol: btc ? "BTCUSDT" : "ETHUSDT", side, type: "limit", price, quantity });
}

// node:http with keep-alive: fetch costs the load generator several times more CPU per request,
// and the load generator shares the two cores with the API, the worker and PostgreSQL.
const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

/** Keys unique across runs against one database (the key is kept on the order row, unique per user). */
const KEY_SALT = randomBytes(6).toString("base64url");
let orderSeq = 0;

function place(token: string, body: string): Promise<boolean> {
  return new Promise((resolve) => {
    const request = http.request(
      {
        agent,
        host: "127.0.0.1",
        port: PORT,
        method: "POST",
        path: "/trpc/spot.place",
        headers: {
          "content-type": "application/json",
          "content-length": Buffer.byteLength(body),
          token,
          // Every order is a new intent: a money action is refused without a key.
          "idempotency-key": `b${(++orderSeq).toString(36)}${KEY_SALT}`,
        },
      },
      (response) => {
        response.resume();
        response.on("end", () => resolve(response.statusCode === 200));
      },
    );
    request.on("error", () => resolve(false));
    request.end(body);
  });
}

/** Closed loop: CONCURRENCY requests always in flight for `seconds`. */
async function closedLoop(tokens: string[], seconds: number, random: () => number) {
  const latencies: number[] = [];
  let failed = 0;
  const end = performance.now() + seconds * 1000;
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < end) {
        const token = tokens[next++ % tokens.length] as string;
        const started = performance.now();
        if (await place(token, orderBody(random))) {
          latencies.push(performance.now() - started);
        } else {
          failed++;
        }
      }
    }),
  );
  return { latencies, failed, seconds };
}

/** Open loop: requests started at a fixed rate whatever the answers, so queueing shows in latency. */
async function openLoop(tokens: string[], rate: number, seconds: number, random: () => number) {
  const latencies: number[] = [];
  let failed = 0;
  const inFlight: Promise<void>[] = [];
  const started = performance.now();
  const total = Math.floor(rate * seconds);
  for (let i = 0; i < total; i++) {
    const due = started + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) {
      await new Promise((r) => setTimeout(r, wait));
    }
    const token = tokens[i % tokens.length] as string;
    const sent = performance.now();
    inFlight.push(
      place(token, orderBody(random)).then((ok) => {
        if (ok) {
          latencies.push(performance.now() - sent);
        } else {
          failed++;
        }
      }),
    );
  }
  await Promise.all(inFlight);
  return { latencies, failed, seconds: (performance.now() - started) / 1000 };
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

export async function run(): Promise<BenchResult> {
  await freshDatabase();
  const prefix = `benchspot${Date.now()}`;
  const redis = new Redis(REDIS_URL);
  const { db, close } = createDb(DATABASE_URL, { max: 4 });
  const tokens: string[] = [];
  for (let i = 0; i < TRADERS; i++) {
    const trader = await createTrader(db, { USDT: "100000000", BTC: "1000", ETH: "20000" });
    tokens.push(await createSession(db, trader.id));
  }
  const api = start("apps/api/src/server.ts", {
    PORT: String(PORT),
    HOST: "127.0.0.1",
    REDIS_PREFIX: prefix,
    WEB_DIST: "",
  });
  const worker = start("apps/worker/src/main.ts", { REDIS_PREFIX: prefix, WORKER_ROLES: "spot-matcher" });
  try {
    for (let i = 0; ; i++) {
      try {
        if ((await fetch(`http://127.0.0.1:${PORT}/health`)).ok) {
          break;
        }
      } catch {}
      // Up to 90 s: on a busy machine loading the API's TypeScript alone can take most of a minute.
      if (i > 900) {
        throw new Error("API did not start in 90 s");
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    const random = mulberry32(5);
    await closedLoop(tokens, sized(3, 1), random); // warm-up: JIT, pools, account-id caches
    const stopCounts = await startSqlCounts(db);
    const measured = await cpuPerOrder(db, { api: api.pid ?? 0, worker: worker.pid ?? 0 }, () =>
      closedLoop(tokens, SECONDS, random),
    );
    const sqlCounts = await stopCounts();
    const closed = {
      ...summary(measured.value),
      cpuMsPerOrder: measured.cpuMsPerOrder,
      sqlPerOrder: perOrder(sqlCounts, measured.value.latencies.length),
    };
    if (process.env.BENCH_SPOT_STATEMENTS) {
      console.log(JSON.stringify(sqlCounts.topStatements, null, 1));
    }
    // Fixed offered rates at half and at four fifths of what the closed loop sustained.
    const openLoops = [];
    for (const share of QUICK ? [] : [0.5, 0.8]) {
      const rate = Math.min(TARGET_RATE, Math.floor(closed.ordersPerSec * share));
      openLoops.push({ rate, ...summary(await openLoop(tokens, rate, Math.min(SECONDS, 10), random)) });
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
    api.kill("SIGTERM");
    worker.kill("SIGTERM");
    await Promise.all([once(api, "exit"), once(worker, "exit")]);
    // With the API and its matcher stopped: the matchers alone, in one and in two processes.
    const shards = QUICK
      ? { summary: [], figures: null }
      : await matcherCapacity({ db, redis, databaseUrl: DATABASE_URL, redisUrl: REDIS_URL });
    return {
      summary: [
        `closed loop, ${CONCURRENCY} in flight, ${SECONDS} s: ${closed.ordersPerSec} orders/s acknowledged, p50 ${closed.latencyMs.p50} ms, p99 ${closed.latencyMs.p99} ms, max ${closed.latencyMs.max} ms, ${closed.failed} failed`,
        `CPU per order in the closed loop (ms): ${JSON.stringify(closed.cpuMsPerOrder)}`,
        `SQL per order in the closed loop: ${JSON.stringify(closed.sqlPerOrder)}`,
        ...openLoops.map(
          (open) =>
            `open loop at ${open.rate} orders/s: ${open.ordersPerSec} orders/s, p50 ${open.latencyMs.p50} ms, p99 ${open.latencyMs.p99} ms, max ${open.latencyMs.max} ms, ${open.failed} failed`,
        ),
        `matcher: ${counts.rows[0]?.orders} orders, ${counts.rows[0]?.trades} fills; ${drainSeconds} s after the load to take every accepted order`,
        `ledger after the run: ${JSON.stringify(ledger)}`,
        ...shards.summary,
      ],
      figures: {
        traders: TRADERS,
        concurrency: CONCURRENCY,
        closedLoop: closed,
        openLoops,
        drainSeconds,
        counts: counts.rows[0],
        ledger,
        matcherShards: shards.figures,
      },
    };
  } finally {
    for (const child of [api, worker]) {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGTERM");
        await once(child, "exit");
      }
    }
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) {
      await redis.del(...keys);
    }
    redis.disconnect();
    await close();
  }
}
