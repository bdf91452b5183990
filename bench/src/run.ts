import { mkdir, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { BenchResult } from "./types.ts";

/**
 * `pnpm bench [all | name…] [--smoke]` runs the benchmarks (all by default), prints their figures and
 * writes each one's figures to bench/results/<name>.json with the machine they ran on: its load
 * average before and after, whether it was busy, and this process's CPU time beside the wall time
 * (a benchmark that runs the API or a worker as a child process reports their CPU itself).
 * `--smoke` runs each at a size of seconds (see smoke.ts) and writes to a temporary folder.
 */
const BENCHMARKS: Record<string, () => Promise<{ run: () => Promise<BenchResult> }>> = {
  "spot-engine": () => import("./spot-engine.ts"),
  "market-socket": () => import("./market-socket.ts"),
  "spot-api": () => import("./spot-api.ts"),
  "order-floor": () => import("./order-floor.ts"),
  "options-settlement": () => import("./options-settlement.ts"),
  "custody-yield": () => import("./custody-yield.ts"),
  "contracts-risk": () => import("./contracts-risk.ts"),
  "login-flood": () => import("./login-flood.ts"),
  "bot-api": () => import("./bot-api.ts"),
  "chain-watcher": () => import("./chain-watcher.ts"),
};

const smoke = process.argv.includes("--smoke");
if (smoke) {
  // Read by every benchmark's module when it loads (smoke.ts), so it is set before the imports below.
  process.env.BENCH_SMOKE = "1";
}
const resultsDir = smoke
  ? path.join(os.tmpdir(), "northstar-bench-smoke")
  : path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "results");
const wanted = process.argv.slice(2).filter((a) => !a.startsWith("-") && a !== "all");
const unknown = wanted.filter((name) => !(name in BENCHMARKS));
if (unknown.length > 0) {
  console.error(`unknown benchmark(s): ${unknown.join(", ")}; known: ${Object.keys(BENCHMARKS).join(", ")}`);
  process.exit(2);
}
await mkdir(resultsDir, { recursive: true });
for (const name of wanted.length > 0 ? wanted : Object.keys(BENCHMARKS)) {
  console.log(`\n== ${name}`);
  const load = BENCHMARKS[name];
  if (!load) {
    continue;
  }
  const { run } = await load();
  const loadBefore = os.loadavg();
  const cpuBefore = process.cpuUsage();
  const wallStarted = performance.now();
  const result = await run();
  const cpu = process.cpuUsage(cpuBefore);
  const loadAfter = os.loadavg();
  for (const line of result.summary) {
    console.log(line);
  }
  // Busy: more runnable processes than half the cores before the run (other work shares the CPU).
  const busy = (loadBefore[0] ?? 0) > os.cpus().length / 2;
  const runInfo = {
    smoke,
    wallSeconds: round((performance.now() - wallStarted) / 1000),
    processCpuSeconds: round((cpu.user + cpu.system) / 1e6),
    loadAverage: { before: loadBefore.map(round), after: loadAfter.map(round) },
    busy,
  };
  console.log(
    `run: ${runInfo.wallSeconds} s wall, ${runInfo.processCpuSeconds} s CPU in this process, load ${runInfo.loadAverage.before.join(" / ")} before` +
      (busy ? " (the machine was busy: figures are low)" : ""),
  );
  const file = path.join(resultsDir, `${name}.json`);
  const machine = {
    node: process.version,
    cpus: os.cpus().length,
    cpu: os.cpus()[0]?.model,
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
  };
  await writeFile(
    file,
    `${JSON.stringify({ name, date: new Date().toISOString(), machine, run: runInfo, ...result.figures }, null, 2)}\n`,
  );
  console.log(`figures written to ${smoke ? file : `bench/results/${name}.json`}`);
}
process.exit(0);

function round(n: number): number {
  return Math.round(n * 100) / 100;
}
