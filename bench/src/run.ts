import { mkdir, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { BenchResult } from "./types.ts";

/**
 * `pnpm bench [name…]` runs the benchmarks (all by default), prints their figures and writes each
 * one's figures to bench/results/<name>.json with the machine they ran on.
 */
const BENCHMARKS: Record<string, () => Promise<{ run: () => Promise<BenchResult> }>> = {
  "spot-engine": () => import("./spot-engine.ts"),
  "market-socket": () => import("./market-socket.ts"),
  "spot-api": () => import("./spot-api.ts"),
  "options-settlement": () => import("./options-settlement.ts"),
  "custody-yield": () => import("./custody-yield.ts"),
  "contracts-risk": () => import("./contracts-risk.ts"),
};

const resultsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "results");
const wanted = process.argv.slice(2).filter((a) => !a.startsWith("-"));
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
  const result = await run();
  for (const line of result.summary) {
    console.log(line);
  }
  const file = path.join(resultsDir, `${name}.json`);
  const machine = {
    node: process.version,
    cpus: os.cpus().length,
    cpu: os.cpus()[0]?.model,
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
  };
  await writeFile(
    file,
    `${JSON.stringify({ name, date: new Date().toISOString(), machine, ...result.figures }, null, 2)}\n`,
  );
  console.log(`figures written to bench/results/${name}.json`);
}
process.exit(0);
