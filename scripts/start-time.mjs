// How long the API and the worker take to start: from spawning the process to its /ready answering
// 200, each started RUNS times through tsx (the sources, as production ran before) and compiled (plain
// node, `pnpm build` first), alternating; prints each time and the medians. The database is set up
// once beforehand; each worker start gets a Redis prefix of its own, so no lease of an earlier run
// is in its way. Usage: node scripts/start-time.mjs [runs] (default 5). Reads DATABASE_URL and
// REDIS_URL like the servers; uses the database `northstar_start_time` on that server.
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { nodeArgs } from "./compiled.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const RUNS = Number(process.argv[2] ?? 5);
const database = new URL(process.env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/northstar");
database.pathname = "/northstar_start_time";
const dataDir = mkdtempSync(join(tmpdir(), "northstar-start-time-"));
const baseEnv = {
  ...process.env,
  DATABASE_URL: database.toString(),
  REDIS_URL: process.env.REDIS_URL ?? "redis://127.0.0.1:6379",
  DATA_DIR: dataDir,
  UPLOAD_DIR: join(dataDir, "uploads"),
  WEB_DIST: "",
  LOG_LEVEL: "warn",
  HOST: "127.0.0.1",
  NODE_OPTIONS: "",
};

const freePort = () =>
  new Promise((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

async function timeToReady(name, compiled) {
  const port = await freePort();
  const env = {
    ...baseEnv,
    REDIS_PREFIX: `start-time:${randomBytes(4).toString("hex")}`,
    ...(name === "api" ? { PORT: String(port) } : { WORKER_HTTP_PORT: String(port) }),
  };
  const started = performance.now();
  const child = spawn(process.execPath, nodeArgs(name, { compiled }), { cwd: ROOT, env, stdio: "ignore" });
  let exited = false;
  child.once("exit", () => {
    exited = true;
  });
  for (;;) {
    if (exited) {
      throw new Error(`${name} exited before it was ready`);
    }
    const ok = await fetch(`http://127.0.0.1:${port}/ready`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) {
      break;
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  const ms = performance.now() - started;
  child.kill("SIGTERM");
  if (!exited) {
    await once(child, "exit");
  }
  return ms;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const setup = spawnSync(process.execPath, nodeArgs("setup", { compiled: true }), {
  cwd: ROOT,
  env: baseEnv,
  encoding: "utf8",
});
if (setup.status !== 0) {
  throw new Error(`set-up failed: ${setup.stderr}`);
}
const loadBefore = (await import("node:os")).loadavg()[0];
const results = {};
for (const name of ["api", "worker"]) {
  for (const mode of ["tsx", "compiled"]) {
    results[`${name} ${mode}`] = [];
  }
  for (let i = 0; i < RUNS; i++) {
    for (const mode of ["tsx", "compiled"]) {
      results[`${name} ${mode}`].push(await timeToReady(name, mode === "compiled"));
    }
  }
}
rmSync(dataDir, { recursive: true, force: true });
const loadAfter = (await import("node:os")).loadavg()[0];
for (const [key, times] of Object.entries(results)) {
  console.log(
    `${key.padEnd(16)} median ${median(times).toFixed(0).padStart(5)} ms  (${times.map((t) => t.toFixed(0)).join(", ")})`,
  );
}
console.log(`load average (1 min) before ${loadBefore.toFixed(2)}, after ${loadAfter.toFixed(2)}`);
