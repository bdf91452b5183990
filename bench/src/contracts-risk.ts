import os from "node:os";
import { performance } from "node:perf_hooks";
import { CONTRACT_CURRENCY, ContractRiskEngine, recordContractTicks } from "@northstar/domain/contracts";
import { createDb, type Db } from "@northstar/domain/db";
import { postEntry } from "@northstar/domain/ledger";
import { saveInstrument } from "@northstar/domain/markets";
import { runMigrations } from "@northstar/domain/migrate";
import { seedDatabase } from "@northstar/domain/seed";
import { ALWAYS_OPEN } from "@northstar/shared/markets";
import { MoneyDecimal } from "@northstar/shared/money";
import { mulberry32 } from "@northstar/shared/random";
import type pg from "pg";
import { newContractUser } from "../../packages/domain/src/contracts/testing.ts";
import { recreateDatabase } from "./database.ts";
import { processCpuSeconds } from "./process-cpu.ts";
import { sized } from "./smoke.ts";
import { type BenchResult, percentile } from "./types.ts";

/*
 * The contracts risk engine against PostgreSQL, as it runs: 100,000 open positions across 100
 * instruments (isolated margin at 5x to 100x, a take-profit or stop-loss on two in three).
 *
 * Part 1, throughput: 120 s of 1 Hz ticks on every instrument (12,000 ticks) are recorded, then the
 * engine reads them all as it would after a takeover, and every crossed position is really closed
 * (exact re-check under a row lock, ledger entry, state change). A position is "evaluated" by each
 * tick of its instrument while it is open (what a per-tick scan would look at); the engine finds the
 * crossed ones through the indexed trigger keys instead. CPU is the engine's process and the
 * PostgreSQL backends it uses.
 *
 * Part 2, latency: the 100 instruments tick live at 1 Hz for LIVE_SECONDS while the engine polls
 * (every 5 ms); every few seconds one instrument moves 3% at once, crossing many positions. The
 * delay is from a tick's committed insert to the committed close of each position it triggered.
 * The feed recorder's batching (a flush every 200 ms) and the worker's poll interval (50 ms) come
 * before this in production and are not included.
 */
const POSITIONS = Number(process.env.BENCH_CONTRACTS_POSITIONS ?? sized(100_000, 2_000));
const INSTRUMENTS = sized(100, 10);
const SECONDS = Number(process.env.BENCH_CONTRACTS_SECONDS ?? sized(120, 5));
const LIVE_SECONDS = Number(process.env.BENCH_CONTRACTS_LIVE_SECONDS ?? sized(30, 3));
const RUNS = Number(process.env.BENCH_CONTRACTS_RUNS ?? sized(3, 1));
const DATABASE_URL =
  process.env.BENCH_CONTRACTS_DATABASE_URL ??
  `postgresql://postgres@127.0.0.1:5432/northstar_bench_contracts${sized("", "_smoke")}`;

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
}

const range = (values: number[]) => ({
  median: median(values),
  min: Math.min(...values),
  max: Math.max(...values),
});

/** CPU seconds (user + system) of processes by pid. */
const cpuOf = (pids: number[]) => new Map(pids.map((pid) => [pid, processCpuSeconds(pid)]));

type Pool = pg.Pool;

async function backendPids(pool: Pool): Promise<number[]> {
  const name = new URL(DATABASE_URL).pathname.slice(1);
  const rows = await pool.query<{ pid: number }>(
    "select pid from pg_stat_activity where datname = $1 order by pid",
    [name],
  );
  return rows.rows.map((r) => Number(r.pid));
}

/** Wall time, this process's CPU and the database backends' CPU of `work`. */
async function measured<T>(pool: Pool, work: () => Promise<T>) {
  const pidsBefore = await backendPids(pool);
  const before = cpuOf(pidsBefore);
  const cpu = process.cpuUsage();
  const start = performance.now();
  const value = await work();
  const wallMs = performance.now() - start;
  const used = process.cpuUsage(cpu);
  const pids = [...new Set([...pidsBefore, ...(await backendPids(pool))])];
  const after = cpuOf(pids);
  // A backend gone by the end (the pool closed it) cannot be read: counted as 0, not negative.
  const dbCpuSeconds = pids.reduce(
    (sum, pid) => sum + Math.max(0, (after.get(pid) ?? 0) - (before.get(pid) ?? 0)),
    0,
  );
  return { value, wallMs, nodeCpuSeconds: (used.user + used.system) / 1e6, dbCpuSeconds };
}

const symbolOf = (i: number) => `R${String(i).padStart(3, "0")}USDT`;

/** A fresh database with 100 always-open instruments and POSITIONS holding positions on them. */
async function setUp(seed: number) {
  await recreateDatabase(DATABASE_URL);
  await runMigrations(DATABASE_URL);
  const conn = createDb(DATABASE_URL, { max: 6 });
  // Connections stay open, so the backends' CPU time can be read at the start and the end.
  (conn.pool as unknown as { options: { idleTimeoutMillis: number } }).options.idleTimeoutMillis = 0;
  const { db } = conn;
  await seedDatabase(db);
  for (let i = 0; i < INSTRUMENTS; i++) {
    await saveInstrument(
      db,
      {
        symbol: symbolOf(i),
        name: `Risk bench ${i}`,
        category: "crypto",
        base: `R${i}`,
        quote: "USDT",
        tickSize: "0.0001",
        lotSize: "0.01",
        minQty: "0.01",
        contractSize: "1",
        maxLeverage: 100,
        displayDecimals: 4,
        kinds: ["contract"],
        tradingHours: ALWAYS_OPEN,
        referencePrice: "100",
        volatility: "0.5",
      },
      "bench",
    );
  }
  const opening = await recordContractTicks(
    db,
    Array.from({ length: INSTRUMENTS }, (_, i) => ({ symbol: symbolOf(i), price: "100", time: Date.now() })),
  );
  const openTick = opening.at(-1)?.id ?? 0;
  const rnd = mulberry32(seed);
  let total = new MoneyDecimal(0);
  const rows: Record<string, unknown>[] = [];
  for (let n = 0; n < POSITIONS; n++) {
    const long = rnd() < 0.5;
    const leverage = [5, 10, 20, 50, 100][Math.floor(rnd() * 5)] as number;
    const margin = new MoneyDecimal(100).div(leverage).toFixed();
    total = total.plus(margin);
    const r = rnd();
    const band = new MoneyDecimal(Math.round((0.01 + rnd() * 0.05) * 10_000)).div(10_000);
    const profit = (long ? band.plus(1) : new MoneyDecimal(1).minus(band)).times(100).toFixed();
    const loss = (long ? new MoneyDecimal(1).minus(band) : band.plus(1)).times(100).toFixed();
    rows.push({
      symbol: symbolOf(n % INSTRUMENTS),
      side: long ? "long" : "short",
      leverage,
      margin,
      take_profit: r < 1 / 3 ? profit : null,
      stop_loss: r >= 1 / 3 && r < 2 / 3 ? loss : null,
    });
  }
  const user = await newContractUser(db, total.plus(1000).toFixed());
  for (let i = 0; i < rows.length; i += 5000) {
    await conn.pool.query(
      `insert into contract_positions (user_id, book, symbol, product_type, side, order_type, status, lots,
        original_lots, contract_size, leverage, entry_price, margin, initial_margin, take_profit, stop_loss,
        maintenance_rate, fee_rate, overnight_rate, open_tick_id, risk_watched, opened_at)
      select $1, 'real', symbol, 'perpetual', side, 'market', 'holding', 1, 1, 1, leverage, 100,
        margin, margin, take_profit, stop_loss, 0.005, 0.0005, 0.0003, $2, true, now()
      from jsonb_to_recordset($3::jsonb)
        as v(symbol text, side text, leverage int, margin numeric, take_profit numeric, stop_loss numeric)`,
      [user.id, openTick, JSON.stringify(rows.slice(i, i + 5000))],
    );
  }
  // What the openings held, in one entry (each opening's own entry in production).
  await postEntry(db, {
    idempotencyKey: "bench.contracts.open",
    kind: "contract.open",
    reference: { type: "bench", id: 1 },
    postings: [
      {
        account: { userId: user.id, book: "real", wallet: "contract", currency: CONTRACT_CURRENCY },
        amount: total.neg().toFixed(),
      },
      {
        account: {
          userId: user.id,
          book: "real",
          wallet: "contract",
          currency: CONTRACT_CURRENCY,
          bucket: "held",
        },
        amount: total.toFixed(),
      },
    ],
  });
  await conn.pool.query("vacuum analyze contract_positions");
  return conn;
}

/** Part 1: SECONDS of 1 Hz ticks on every instrument, read and applied by the engine in one go. */
async function throughput(db: Db, pool: Pool, seed: number) {
  const engine = new ContractRiskEngine(db, { name: "bench" });
  await engine.start();
  const rnd = mulberry32(seed + 1);
  const prices = Array.from({ length: INSTRUMENTS }, () => new MoneyDecimal(100));
  const base = Date.now() - SECONDS * 1000;
  for (let s = 0; s < SECONDS; s++) {
    await recordContractTicks(
      db,
      prices.map((p, i) => {
        prices[i] = p.times(1 + (rnd() - 0.5) * 0.004).toDecimalPlaces(4);
        return { symbol: symbolOf(i), price: (prices[i] as MoneyDecimal).toFixed(), time: base + s * 1000 };
      }),
    );
  }
  const run = await measured(pool, () => engine.drain());
  // Each open position is evaluated by every tick of its instrument up to the one that closed it.
  const [row] = (
    await pool.query<{ n: string }>(
      `select count(*) as n from contract_positions p
       join contract_ticks t on t.symbol = p.symbol and t.id > p.open_tick_id
         and t.id <= coalesce(p.close_tick_id, $1)`,
      [engine.position],
    )
  ).rows;
  const evaluated = Number(row?.n ?? 0);
  const cpuSeconds = run.nodeCpuSeconds + run.dbCpuSeconds;
  return {
    ticks: engine.stats.ticks,
    evaluated,
    candidates: engine.stats.candidates,
    closed: engine.stats.triggered,
    wallMs: run.wallMs,
    nodeCpuSeconds: run.nodeCpuSeconds,
    dbCpuSeconds: run.dbCpuSeconds,
    evaluationsPerCpuSecond: evaluated / cpuSeconds,
    evaluationsPerWallSecond: evaluated / (run.wallMs / 1000),
    prices: prices.map((p) => p.toFixed()),
  };
}

/** Part 2: live 1 Hz ticking with the engine polling; delay from each tick's commit to each close. */
async function latency(db: Db, pool: Pool, seed: number, start: string[]) {
  const rnd = mulberry32(seed + 2);
  const prices = start.map((p) => new MoneyDecimal(p));
  const committedAt = new Map<number, number>();
  const delays: number[] = [];
  const engine = new ContractRiskEngine(db, {
    name: "bench",
    // Called once the close's transaction has committed.
    onTriggered: (_kind, _position, _user, tickId) => {
      delays.push(performance.now() - (committedAt.get(tickId) ?? Number.NaN));
    },
  });
  await engine.start();
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      if ((await engine.step()) === 0) {
        await new Promise((r) => setTimeout(r, 5));
      }
    }
  })();
  const run = await measured(pool, async () => {
    const began = performance.now();
    let jumps = 0;
    for (let s = 0; s < LIVE_SECONDS; s++) {
      // The instruments' ticks are spread over the second, ten at a time.
      for (let g = 0; g < INSTRUMENTS; g += 10) {
        const due = began + s * 1000 + g * 10;
        await new Promise((r) => setTimeout(r, Math.max(0, due - performance.now())));
        const batch = [];
        for (let i = g; i < g + 10; i++) {
          const jump = s % 3 === 2 && i === (s * 7) % INSTRUMENTS;
          const move = jump ? (s % 2 === 0 ? -0.03 : 0.03) : (rnd() - 0.5) * 0.004;
          jumps += jump ? 1 : 0;
          prices[i] = (prices[i] as MoneyDecimal).times(1 + move).toDecimalPlaces(4);
          batch.push({ symbol: symbolOf(i), price: (prices[i] as MoneyDecimal).toFixed(), time: Date.now() });
        }
        const rows = await recordContractTicks(db, batch);
        const at = performance.now();
        for (const r of rows) {
          committedAt.set(r.id, at);
        }
      }
    }
    // The last ticks' closes.
    const end = performance.now() + 10_000;
    while (performance.now() < end) {
      const [left] = (
        await pool.query<{ n: string }>("select count(*) as n from contract_ticks where id > $1", [
          engine.position,
        ])
      ).rows;
      if (Number(left?.n ?? 0) === 0) {
        break;
      }
      await new Promise((r) => setTimeout(r, 20));
    }
    return jumps;
  });
  stopped = true;
  await loop;
  const sorted = delays.sort((x, y) => x - y);
  return {
    seconds: LIVE_SECONDS,
    jumps: run.value,
    closed: delays.length,
    nodeCpuSeconds: run.nodeCpuSeconds,
    dbCpuSeconds: run.dbCpuSeconds,
    delayMs: {
      p50: percentile(sorted, 50),
      p99: percentile(sorted, 99),
      max: sorted.at(-1) ?? Number.NaN,
      min: sorted[0] ?? Number.NaN,
    },
  };
}

export async function run(): Promise<BenchResult> {
  const loadAtStart = os.loadavg();
  const runs = [];
  for (let r = 0; r < RUNS; r++) {
    const seed = 20261126 + r;
    const conn = await setUp(seed);
    try {
      const t = await throughput(conn.db, conn.pool, seed);
      const l = await latency(conn.db, conn.pool, seed, t.prices);
      const { prices: _, ...figures } = t;
      runs.push({ throughput: figures, latency: l, loadAverage: os.loadavg() });
    } finally {
      await conn.close();
    }
  }
  const perCpu = runs.map((r) => r.throughput.evaluationsPerCpuSecond);
  const perWall = runs.map((r) => r.throughput.evaluationsPerWallSecond);
  const p99 = runs.map((r) => r.latency.delayMs.p99);
  const p50 = runs.map((r) => r.latency.delayMs.p50);
  const f = (v: number) => Math.round(v).toLocaleString("en");
  const summary = [
    `${POSITIONS} positions on ${INSTRUMENTS} instruments; ${RUNS} runs`,
    `throughput (${SECONDS} s of 1 Hz ticks, applied with their closes): position evaluations per CPU-second ` +
      `(engine + PostgreSQL) median ${f(median(perCpu))} (range ${f(Math.min(...perCpu))}–${f(Math.max(...perCpu))}); ` +
      `per wall-second median ${f(median(perWall))}`,
    ...runs.map(
      (r, i) =>
        `  run ${i + 1}: ${r.throughput.ticks} ticks, ${r.throughput.closed} closes in ${(r.throughput.wallMs / 1000).toFixed(2)} s; ` +
        `CPU engine ${r.throughput.nodeCpuSeconds.toFixed(2)} s, PostgreSQL ${r.throughput.dbCpuSeconds.toFixed(2)} s`,
    ),
    `latency (${LIVE_SECONDS} s live, 1 Hz per instrument, 3% jumps): tick commit → committed close ` +
      `p99 median ${median(p99).toFixed(1)} ms (range ${Math.min(...p99).toFixed(1)}–${Math.max(...p99).toFixed(1)}), ` +
      `p50 median ${median(p50).toFixed(1)} ms`,
    ...runs.map(
      (r, i) =>
        `  run ${i + 1}: ${r.latency.closed} closes; p50 ${r.latency.delayMs.p50.toFixed(1)} ms, p99 ${r.latency.delayMs.p99.toFixed(1)} ms, max ${r.latency.delayMs.max.toFixed(1)} ms; ` +
        `CPU engine ${r.latency.nodeCpuSeconds.toFixed(2)} s, PostgreSQL ${r.latency.dbCpuSeconds.toFixed(2)} s`,
    ),
    `load average (1/5/15 min) at start ${loadAtStart.map((l) => l.toFixed(2)).join(" ")}, at end ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}`,
  ];
  return {
    summary,
    figures: {
      loadAverageAtStart: loadAtStart,
      loadAverageAtEnd: os.loadavg(),
      positions: POSITIONS,
      instruments: INSTRUMENTS,
      seconds: SECONDS,
      liveSeconds: LIVE_SECONDS,
      evaluationsPerCpuSecond: range(perCpu),
      evaluationsPerWallSecond: range(perWall),
      p99DelayMs: range(p99),
      p50DelayMs: range(p50),
      runs,
    },
  };
}
