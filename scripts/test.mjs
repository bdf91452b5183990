// `pnpm test`: typecheck, lint, unit, integration, every benchmark at a size of seconds, the web's size
// budget and the browser tests. Ends with one line "N passed, N failed" summing every test that ran.
//
// Stages that do not need each other run side by side in two lanes: unit → integration, and
// typecheck → lint → bench-smoke → budget → browser (the budget's build is the one the browser tests
// serve). Each of the two long stages alone leaves much of the machine idle while it waits (on
// PostgreSQL, on a process to start, on a page to load). A lane stops at its first failing stage; the
// other lane finishes, and the run fails. Integration files run one at a time (vitest's default on
// two cores) beside two browser files: a second integration file at once made the run longer, not
// shorter (the machine was saturated, load about 12).
//
// `pnpm test unit integration` runs only the stages named. `TEST_SERIAL=1` runs every stage one after
// another, each with the whole machine (to time a stage alone).
import { spawn } from "node:child_process";
import { createWriteStream, mkdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

const resultsDir = "test-results";
rmSync(resultsDir, { recursive: true, force: true });
mkdirSync(resultsDir, { recursive: true });

const vitestReport = (name) => [
  "--reporter=default",
  "--reporter=json",
  `--outputFile.json=${name === "browser" ? "../" : ""}${resultsDir}/${name}.json`,
];
const STAGES = {
  typecheck: ["pnpm", ["-r", "--parallel", "typecheck"]],
  lint: ["pnpm", ["run", "lint"]],
  unit: ["pnpm", ["exec", "vitest", "run", "--project", "unit", ...vitestReport("unit")]],
  integration: [
    "pnpm",
    ["exec", "vitest", "run", "--project", "integration", ...vitestReport("integration")],
  ],
  // Every benchmark once, small, with its own checks (reconcile, same final book, every order paid): a
  // benchmark that no longer runs fails here rather than on the day it is needed.
  "bench-smoke": ["pnpm", ["bench", "all", "--smoke"]],
  // Builds the web app as `pnpm start` serves it and checks each main page's first-load JavaScript
  // against its budget (apps/web/scripts/bundle-budget.mjs); the browser stage reuses this build.
  budget: ["pnpm", ["--filter", "@northstar/web", "run", "budget"]],
  browser: ["pnpm", ["--filter", "@northstar/e2e", "exec", "vitest", "run", ...vitestReport("browser")]],
};
/**
 * Phases run one after another; the lanes of a phase run side by side; a lane's stages in order. One
 * phase of two lanes: each lane is about half of the work, and each starts with a quick stage.
 */
const PHASES = [
  [
    ["unit", "integration"],
    ["typecheck", "lint", "bench-smoke", "budget", "browser"],
  ],
];

const only = process.argv.slice(2);
for (const name of only) {
  if (!(name in STAGES)) {
    console.error(`unknown stage ${name}; stages: ${Object.keys(STAGES).join(", ")}`);
    process.exit(2);
  }
}
const serial = process.env.TEST_SERIAL === "1";
const wanted = (name) => only.length === 0 || only.includes(name);
const phases = (serial ? PHASES.flat(2).map((stage) => [[stage]]) : PHASES)
  .map((lanes) => lanes.map((lane) => lane.filter(wanted)).filter((lane) => lane.length > 0))
  .filter((lanes) => lanes.length > 0);

let passed = 0;
let failed = 0;
// The names of failed tests, repeated at the very end: a CI log is often read from its tail.
const failures = [];
let built = false;
const times = [];

/**
 * CPU seconds (user + system) of every process this one has waited for, from /proc (Linux only; null
 * elsewhere). On a shared machine wall time says little; a stage's CPU is what a change should cut.
 * A child's CPU, its own children's included, is added when it exits, so the growth since the last
 * stage ended belongs to the stage ending now. Clock ticks are 100 a second on Linux.
 */
function childrenCpuSeconds() {
  try {
    const stat = readFileSync("/proc/self/stat", "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return null;
  }
}
let cpuSeen = childrenCpuSeconds();

/**
 * Runs one stage. Alone it writes to the terminal; beside another its output goes to
 * test-results/<stage>.log and is printed whole when it ends, so two stages never interleave lines.
 */
function runStage(name, alone) {
  const [cmd, args] = STAGES[name];
  // The browser stage rebuilds the web app unless the budget stage has just built it, and keeps its
  // screenshots with the run's results: the committed ones in docs/screenshots change only when
  // someone refreshes them (`pnpm test:e2e`).
  const env =
    name === "browser"
      ? {
          ...process.env,
          E2E_SCREENSHOTS_DIR: path.resolve(resultsDir, "screenshots"),
          ...(built ? { E2E_SKIP_BUILD: "1" } : {}),
        }
      : process.env;
  const started = Date.now();
  if (alone) {
    console.log(`\n=== ${name} ===`);
  } else {
    console.log(`=== ${name}: started (output in ${resultsDir}/${name}.log) ===`);
  }
  return new Promise((resolve) => {
    const log = alone ? null : createWriteStream(`${resultsDir}/${name}.log`);
    const child = spawn(cmd, args, { env, stdio: alone ? "inherit" : ["ignore", "pipe", "pipe"] });
    child.stdout?.pipe(log, { end: false });
    child.stderr?.pipe(log, { end: false });
    child.on("close", (code) => {
      const seconds = (Date.now() - started) / 1000;
      const cpuNow = childrenCpuSeconds();
      const cpu = cpuNow === null || cpuSeen === null ? "" : `, ${(cpuNow - cpuSeen).toFixed(0)} CPU-s`;
      cpuSeen = cpuNow;
      const finish = () => {
        if (!alone) {
          console.log(`\n=== ${name} ===\n${readFileSync(`${resultsDir}/${name}.log`, "utf8")}`);
        }
        built ||= name === "budget" && code === 0;
        let stageFailed = 0;
        try {
          const report = JSON.parse(readFileSync(`${resultsDir}/${name}.json`, "utf8"));
          passed += report.numPassedTests;
          stageFailed = report.numFailedTests;
          for (const file of report.testResults ?? []) {
            for (const test of file.assertionResults ?? []) {
              if (test.status === "failed") {
                const why = String(test.failureMessages?.[0] ?? "")
                  .split("\n")[0]
                  .slice(0, 300);
                failures.push(
                  `${name}: ${file.name.replace(`${process.cwd()}/`, "")} > ${test.fullName}\n      ${why}`,
                );
              }
            }
          }
        } catch {
          // typecheck, lint, the bench and the budget write no report
        }
        // A stage that failed without a failing test (a crash, a type error) still counts once.
        failed += code === 0 ? stageFailed : Math.max(stageFailed, 1);
        times.push(`${name} ${seconds.toFixed(1)} s${cpu}`);
        console.log(`=== ${name}: ${code === 0 ? "ok" : "FAILED"} in ${seconds.toFixed(1)} s${cpu} ===`);
        resolve(code === 0);
      };
      if (log) {
        log.end(finish);
      } else {
        finish();
      }
    });
  });
}

async function runLane(lane, alone) {
  for (const name of lane) {
    if (!(await runStage(name, alone))) {
      return false;
    }
  }
  return true;
}

const started = Date.now();
let ok = true;
for (const lanes of phases) {
  const results = await Promise.all(lanes.map((lane) => runLane(lane, lanes.length === 1)));
  if (results.includes(false)) {
    ok = false;
    break;
  }
}
const cpuAll = childrenCpuSeconds();
const load = os
  .loadavg()
  .map((n) => n.toFixed(1))
  .join(" / ");
console.log(
  `\nstages: ${times.join(", ")}; all in ${((Date.now() - started) / 1000).toFixed(1)} s` +
    (cpuAll === null ? "" : `, ${cpuAll.toFixed(0)} CPU-s`) +
    `; load average at the end ${load}`,
);
if (failures.length > 0) {
  console.log(`\nfailed:\n${failures.map((line) => `  ${line}`).join("\n")}`);
}
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(ok ? 0 : 1);
