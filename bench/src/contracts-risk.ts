import os from "node:os";
import { performance } from "node:perf_hooks";
import {
  ContractRiskEngine,
  openContractPosition,
  RiskIndex,
  recordContractTicks,
} from "@northstar/domain/contracts";
import { createDb } from "@northstar/domain/db";
import { runMigrations } from "@northstar/domain/migrate";
import { seedDatabase } from "@northstar/domain/seed";
import { mulberry32 } from "@northstar/shared/random";
import { newContractUser } from "../../packages/domain/src/contracts/testing.ts";
import { recreateDatabase } from "./database.ts";
import { type BenchResult, percentile } from "./types.ts";

/*
 * The contracts risk engine. Part 1, in memory on one core: 100,000 open positions across 100
 * instruments (a liquidation key each, and a TP or SL on two in three), 100 instruments ticking at
 * 1 Hz: the index finds the positions a tick crosses without looking at the others. A position is
 * "evaluated" when a tick of its instrument is decided for it (every position of the instrument, per
 * tick); crossed positions are re-indexed as the engine does. Part 2, against PostgreSQL: the delay
 * from a crossing tick's commit to the committed liquidation, through the real engine (exact
 * re-check under a row lock, ledger entry, state change). The feed recorder's batching (a flush every
 * 200 ms) comes before this in production and is not included.
 */
const POSITIONS = 100_000;
const INSTRUMENTS = 100;
const SECONDS = Number(process.env.BENCH_CONTRACTS_SECONDS ?? 120);
const RUNS = 5;
const DATABASE_URL =
  process.env.BENCH_CONTRACTS_DATABASE_URL ??
  "postgresql://postgres@127.0.0.1:5432/northstar_bench_contracts";
const DB_POSITIONS = Number(process.env.BENCH_CONTRACTS_DB_POSITIONS ?? 400);

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
}

/** One in-memory run: builds the index, then plays SECONDS of 1 Hz ticks on every instrument. */
function memoryRun(seed: number) {
  const rnd = mulberry32(seed);
  const index = new RiskIndex();
  const prices = Array.from({ length: INSTRUMENTS }, () => 100);
  const symbols = Array.from({ length: INSTRUMENTS }, (_, i) => `I${i}`);
  const keysOf = new Map<number, { symbol: string; below: number[]; above: number[] }>();
  for (let id = 1; id <= POSITIONS; id++) {
    const i = id % INSTRUMENTS;
    const long = rnd() < 0.5;
    const leverage = [5, 10, 20, 50, 100][Math.floor(rnd() * 5)] as number;
    const liq = long ? 100 * (1 - 1 / leverage) : 100 * (1 + 1 / leverage);
    const keys = { symbol: symbols[i] as string, below: [] as number[], above: [] as number[] };
    (long ? keys.below : keys.above).push(liq);
    if (rnd() < 2 / 3) {
      const band = 0.01 + rnd() * 0.05;
      (long ? keys.above : keys.below).push(long ? 100 * (1 + band) : 100 * (1 - band));
    }
    keysOf.set(id, keys);
    index.upsert(id, keys.symbol, keys);
  }
  let evaluated = 0;
  let crossed = 0;
  const cpu = process.cpuUsage();
  const start = performance.now();
  for (let s = 0; s < SECONDS; s++) {
    for (let i = 0; i < INSTRUMENTS; i++) {
      prices[i] = (prices[i] as number) * (1 + (rnd() - 0.5) * 0.004);
      const symbol = symbols[i] as string;
      evaluated += index.countOn(symbol);
      const ids = index.crossed(symbol, prices[i] as number);
      crossed += ids.length;
      // A crossed position is closed: the engine drops it (as a liquidation or TP/SL does).
      for (const id of ids) {
        index.remove(id);
      }
    }
  }
  const wallMs = performance.now() - start;
  const used = process.cpuUsage(cpu);
  const cpuSeconds = (used.user + used.system) / 1e6;
  return { evaluated, crossed, ticks: SECONDS * INSTRUMENTS, wallMs, cpuSeconds, left: index.size };
}

/** The DB part: positions that one tick liquidates; delay from each tick's commit to each committed close. */
async function latencyRun() {
  await recreateDatabase(DATABASE_URL);
  await runMigrations(DATABASE_URL);
  const { db, close } = createDb(DATABASE_URL, { max: 10 });
  try {
    await seedDatabase(db);
    const symbols = ["BTCUSDT", "ETHUSDT", "SOLUSDT", "BNBUSDT", "XRPUSDT", "DOGEUSDT", "ADAUSDT", "LTCUSDT"];
    await recordContractTicks(
      db,
      symbols.map((symbol) => ({ symbol, price: "100", time: Date.now() })),
    );
    const user = await newContractUser(db, "100000000");
    for (let i = 0; i < DB_POSITIONS; i++) {
      if (i % 40 === 0) {
        // Orders open at a fresh recorded price (a stale one is refused).
        await recordContractTicks(
          db,
          symbols.map((symbol) => ({ symbol, price: "100", time: Date.now() })),
        );
      }
      await openContractPosition({ db }, user, {
        symbol: symbols[i % symbols.length] as string,
        side: "long",
        order_type: "market",
        lots: "1",
        leverage: 20,
      });
    }
    const tickAt = new Map<string, number>();
    const delays: number[] = [];
    const engine = new ContractRiskEngine(db, {
      name: "bench",
      // Called after the close's transaction has committed.
      onTriggered: (_kind, position) => {
        delays.push(performance.now() - (tickAt.get(position.symbol) ?? Number.NaN));
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
    const cpu = process.cpuUsage();
    const began = performance.now();
    // Liquidation at 20x with a 0.5% maintenance rate is near 95.48: a tick at 95 crosses every
    // position of its instrument. One instrument ticks every 250 ms.
    for (const symbol of symbols) {
      await recordContractTicks(db, [{ symbol, price: "95", time: Date.now() }]);
      tickAt.set(symbol, performance.now());
      await new Promise((r) => setTimeout(r, 250));
    }
    while (engine.stats.triggered < DB_POSITIONS && performance.now() - began < 120_000) {
      await new Promise((r) => setTimeout(r, 20));
    }
    stopped = true;
    await loop;
    const used = process.cpuUsage(cpu);
    const sorted = delays.sort((x, y) => x - y);
    return {
      positions: DB_POSITIONS,
      instruments: symbols.length,
      liquidated: engine.stats.triggered,
      cpuSeconds: (used.user + used.system) / 1e6,
      closesPerCpuSecond: engine.stats.triggered / ((used.user + used.system) / 1e6),
      delayMs: {
        p50: percentile(sorted, 50),
        p99: percentile(sorted, 99),
        max: sorted.at(-1) ?? Number.NaN,
        min: sorted[0] ?? Number.NaN,
      },
    };
  } finally {
    await close();
  }
}

export async function run(): Promise<BenchResult> {
  const loadAtStart = os.loadavg();
  const runs = [];
  for (let r = 0; r < RUNS; r++) {
    runs.push(memoryRun(20261125 + r));
  }
  const perCpu = runs.map((r) => r.evaluated / r.cpuSeconds);
  const perWall = runs.map((r) => r.evaluated / (r.wallMs / 1000));
  const tickMs = runs.map((r) => r.wallMs / r.ticks);
  const db = await latencyRun();
  const summary = [
    `in memory: ${POSITIONS} positions, ${INSTRUMENTS} instruments, ${SECONDS} s of 1 Hz ticks each; ${RUNS} runs`,
    `  position evaluations per CPU-second: median ${Math.round(median(perCpu))} (range ${Math.round(Math.min(...perCpu))}–${Math.round(Math.max(...perCpu))})`,
    `  per wall-second: median ${Math.round(median(perWall))}; per tick ${median(tickMs).toFixed(4)} ms`,
    `database: ${db.liquidated}/${db.positions} positions liquidated by ${db.instruments} crossing ticks; ` +
      `tick commit → committed liquidation p50 ${db.delayMs.p50.toFixed(1)} ms, p99 ${db.delayMs.p99.toFixed(1)} ms, ` +
      `max ${db.delayMs.max.toFixed(1)} ms; ${Math.round(db.closesPerCpuSecond)} closes per CPU-second`,
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
      memory: { positions: POSITIONS, instruments: INSTRUMENTS, seconds: SECONDS, runs },
      evaluationsPerCpuSecond: { median: median(perCpu), min: Math.min(...perCpu), max: Math.max(...perCpu) },
      evaluationsPerWallSecond: {
        median: median(perWall),
        min: Math.min(...perWall),
        max: Math.max(...perWall),
      },
      db,
    },
  };
}
