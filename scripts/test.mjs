// `pnpm test`: typecheck, lint, unit, integration, the web's size budget and browser tests, in that order, stopping at the
// first failing stage. Ends with one line "N passed, N failed" summing every test that ran.
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync } from "node:fs";

const resultsDir = "test-results";
rmSync(resultsDir, { recursive: true, force: true });
mkdirSync(resultsDir, { recursive: true });

const stages = [
  ["typecheck", "pnpm", ["-r", "--parallel", "typecheck"]],
  ["lint", "pnpm", ["run", "lint"]],
  [
    "unit",
    "pnpm",
    [
      "exec",
      "vitest",
      "run",
      "--project",
      "unit",
      "--reporter=default",
      "--reporter=json",
      `--outputFile.json=${resultsDir}/unit.json`,
    ],
  ],
  [
    "integration",
    "pnpm",
    [
      "exec",
      "vitest",
      "run",
      "--project",
      "integration",
      "--reporter=default",
      "--reporter=json",
      `--outputFile.json=${resultsDir}/integration.json`,
    ],
  ],
  // Every benchmark once at a size of seconds, with its own checks (reconcile, same final book, every
  // order paid): a benchmark that no longer runs fails here rather than on the day it is needed.
  ["bench-smoke", "pnpm", ["bench", "all", "--smoke"]],
  // Builds the web app as `pnpm start` serves it and checks each main page's first-load JavaScript
  // against its budget (apps/web/scripts/bundle-budget.mjs); the browser stage reuses this build.
  ["budget", "pnpm", ["--filter", "@northstar/web", "run", "budget"]],
  [
    "browser",
    "pnpm",
    [
      "--filter",
      "@northstar/e2e",
      "exec",
      "vitest",
      "run",
      "--reporter=default",
      "--reporter=json",
      `--outputFile.json=../${resultsDir}/browser.json`,
    ],
  ],
];

const only = process.argv.slice(2);
let passed = 0;
let failed = 0;
let exitCode = 0;
let built = false;
for (const [name, cmd, args] of stages) {
  if (only.length > 0 && !only.includes(name)) {
    continue;
  }
  const started = Date.now();
  console.log(`\n=== ${name} ===`);
  // The browser stage rebuilds the web app unless the budget stage has just built it.
  const env = name === "browser" && built ? { ...process.env, E2E_SKIP_BUILD: "1" } : process.env;
  const result = spawnSync(cmd, args, { stdio: "inherit", env });
  built ||= name === "budget" && result.status === 0;
  try {
    const report = JSON.parse(readFileSync(`${resultsDir}/${name}.json`, "utf8"));
    passed += report.numPassedTests;
    failed += report.numFailedTests;
  } catch {
    // typecheck and lint write no report
  }
  console.log(
    `=== ${name}: ${result.status === 0 ? "ok" : "FAILED"} in ${((Date.now() - started) / 1000).toFixed(1)} s ===`,
  );
  if (result.status !== 0) {
    exitCode = result.status ?? 1;
    if (failed === 0) {
      failed = 1;
    }
    break;
  }
}
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(exitCode);
