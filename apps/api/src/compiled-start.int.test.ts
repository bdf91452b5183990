import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import {
  createTestDatabase,
  logTails,
  testRedisUrl,
  until as waitUntil,
} from "../../../packages/domain/src/test-support/index.ts";
import { nodeArgs } from "../../../scripts/compiled.mjs";

/*
 * Production runs compiled JavaScript under plain node (`pnpm build`, then `pnpm start` or the image):
 * the API and the worker start from `dist/` with the very command line `pnpm start` uses, answer
 * /health and /ready, and carry no TypeScript loader — checked from outside through the inspector:
 * the process's node options, the require hooks it has, and every script its engine has parsed.
 * The same check run on a process started through tsx must find the loader, so it can fail.
 */
const ROOT = fileURLToPath(new URL("../../..", import.meta.url));
const START_TIMEOUT_MS = 120_000;

interface Started {
  name: string;
  child: ChildProcess;
  lines: string[];
  inspector: Promise<string>;
}
const processes: Started[] = [];
const cleanups: (() => Promise<unknown>)[] = [];

afterAll(async () => {
  for (const p of processes) {
    p.child.kill("SIGKILL");
  }
  for (const cleanup of cleanups.reverse()) {
    await cleanup();
  }
});

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

/** Starts node with the given arguments behind an inspector on a free port; resolves its address. */
function start(name: string, args: string[], env: Record<string, string>): Started {
  const lines: string[] = [];
  const child = spawn(process.execPath, ["--inspect=127.0.0.1:0", ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const inspector = new Promise<string>((resolve, reject) => {
    child.once("exit", (code) =>
      reject(new Error(`${name} exited (${code}):\n${lines.slice(-20).join("\n")}`)),
    );
    for (const stream of [child.stdout, child.stderr]) {
      stream?.on("data", (chunk: Buffer) => {
        for (const line of chunk.toString().split("\n")) {
          if (line.trim()) {
            lines.push(line);
          }
          const found = /Debugger listening on (ws:\/\/\S+)/.exec(line);
          if (found?.[1]) {
            resolve(found[1]);
          }
        }
      });
    }
  });
  inspector.catch(() => {});
  const started = { name, child, lines, inspector };
  processes.push(started);
  return started;
}

/**
 * Waits for a state (the shared helper): a probe that throws (a server not listening yet) has not
 * got there; a timeout names the processes' last lines.
 */
const until = (probe: () => Promise<boolean>, what: string, timeoutMs = START_TIMEOUT_MS) =>
  waitUntil(() => probe().catch(() => false), what, {
    timeoutMs,
    intervalMs: 100,
    context: () => logTails(processes),
  });

const answers200 = (url: string) => async () => (await fetch(url)).status === 200;

interface Loaded {
  execArgv: string[];
  nodeOptions: string;
  requireExtensions: string[];
  scripts: string[];
}

/** What a running process has loaded, read through its inspector (Chrome DevTools Protocol). */
async function inspect(address: string): Promise<Loaded> {
  const socket = new WebSocket(address);
  await new Promise((resolve, reject) => {
    socket.once("open", resolve);
    socket.once("error", reject);
  });
  const scripts: string[] = [];
  const pending = new Map<number, (result: unknown) => void>();
  socket.on("message", (data: Buffer) => {
    const message = JSON.parse(data.toString()) as {
      id?: number;
      method?: string;
      params?: { url?: string };
      result?: unknown;
    };
    if (message.method === "Debugger.scriptParsed" && message.params?.url) {
      scripts.push(message.params.url);
    }
    if (message.id !== undefined) {
      pending.get(message.id)?.(message.result);
    }
  });
  let nextId = 1;
  const call = (method: string, params: object = {}) =>
    new Promise<unknown>((resolve) => {
      const id = nextId++;
      pending.set(id, resolve);
      socket.send(JSON.stringify({ id, method, params }));
    });
  try {
    // Enabling the debugger reports every script parsed so far, before its answer.
    await call("Debugger.enable");
    const evaluated = (await call("Runtime.evaluate", {
      expression: `JSON.stringify({
        execArgv: process.execArgv,
        nodeOptions: process.env.NODE_OPTIONS ?? "",
        requireExtensions: Object.keys(process.getBuiltinModule("node:module")._extensions),
      })`,
      returnByValue: true,
    })) as { result: { value: string } };
    return { ...(JSON.parse(evaluated.result.value) as Omit<Loaded, "scripts">), scripts };
  } finally {
    socket.close();
  }
}

/** The signs of a TypeScript loader in a process; empty when it runs plain JavaScript. */
function typeScriptLoaderSigns(loaded: Loaded): string[] {
  const signs: string[] = [];
  for (const arg of [...loaded.execArgv, ...loaded.nodeOptions.split(/\s+/)]) {
    if (/tsx|ts-node|--loader|--experimental-loader|--import|--require|^-r$|strip-types/.test(arg)) {
      signs.push(`node option ${arg}`);
    }
  }
  for (const extension of loaded.requireExtensions) {
    if (/^\.[mc]?tsx?$/.test(extension)) {
      signs.push(`require hook for ${extension}`);
    }
  }
  for (const url of loaded.scripts) {
    if (/\/tsx\/|\/ts-node\/|\/typescript\/|\.[mc]?tsx?(\?.*)?$/.test(url)) {
      signs.push(`script ${url}`);
    }
  }
  return signs;
}

describe("the compiled build", () => {
  const env: Record<string, string> = {};

  beforeAll(async () => {
    // Built once for the file, as `pnpm build` builds it (the web app is not needed here).
    const build = spawnSync(process.execPath, ["scripts/build-server.mjs"], { cwd: ROOT, encoding: "utf8" });
    expect(build.status, build.stderr).toBe(0);

    const database = await createTestDatabase();
    const dataDir = await mkdtemp(join(tmpdir(), "northstar-compiled-"));
    const prefix = `test:compiled:${randomBytes(4).toString("hex")}`;
    cleanups.push(async () => {
      await database.drop();
      await rm(dataDir, { recursive: true, force: true });
      const redis = new Redis(testRedisUrl());
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length > 0) {
        await redis.del(...keys);
      }
      redis.disconnect();
    });
    Object.assign(env, {
      DATABASE_URL: database.url,
      REDIS_URL: testRedisUrl(),
      REDIS_PREFIX: prefix,
      UPLOAD_DIR: join(dataDir, "uploads"),
      DATA_DIR: dataDir,
      WEB_DIST: "",
      LOG_LEVEL: "warn",
      HOST: "127.0.0.1",
      NODE_OPTIONS: "",
    });
  }, START_TIMEOUT_MS);

  // Three process starts and their checks: seconds each on a loaded machine (CI runs the browser tests
  // beside this lane), as in cli/admin.int.test.ts.
  it("sets up the database, then serves the API and runs the worker under plain node", {
    timeout: 120_000,
  }, async () => {
    // The database set-up `pnpm start` runs first, compiled too.
    const setup = spawnSync(process.execPath, nodeArgs("setup", { compiled: true }), {
      cwd: ROOT,
      env: { ...process.env, ...env },
      encoding: "utf8",
    });
    expect(setup.status, setup.stderr).toBe(0);
    expect(setup.stdout).toContain("database ready");

    const apiPort = await freePort();
    const workerPort = await freePort();
    const apiArgs = nodeArgs("api", { compiled: true });
    const workerArgs = nodeArgs("worker", { compiled: true });
    expect(apiArgs.at(-1)).toMatch(/apps\/api\/dist\/server\.js$/);
    expect(workerArgs.at(-1)).toMatch(/apps\/worker\/dist\/main\.js$/);
    const api = start("api", apiArgs, { ...env, PORT: String(apiPort) });
    const worker = start("worker", workerArgs, {
      ...env,
      WORKER_HTTP_PORT: String(workerPort),
      WORKER_HTTP_HOST: "127.0.0.1",
    });

    for (const [name, port] of [
      ["api", apiPort],
      ["worker", workerPort],
    ] as const) {
      await until(answers200(`http://127.0.0.1:${port}/health`), `${name} /health`);
      await until(answers200(`http://127.0.0.1:${port}/ready`), `${name} /ready`);
    }

    for (const [started, entry] of [
      [api, "apps/api/dist/server.js"],
      [worker, "apps/worker/dist/main.js"],
    ] as const) {
      const loaded = await inspect(await started.inspector);
      // The listing is real: it holds the compiled entry and the domain's compiled modules.
      expect(loaded.scripts.some((url) => url.endsWith(entry))).toBe(true);
      expect(loaded.scripts.some((url) => url.includes("/packages/domain/dist/"))).toBe(true);
      expect(loaded.execArgv).toContain("--conditions=northstar-compiled");
      expect(typeScriptLoaderSigns(loaded), started.name).toEqual([]);
    }
  });

  it("finds the loader in a process started through tsx (the check can fail)", async () => {
    const dir = await mkdtemp(join(tmpdir(), "northstar-tsx-"));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const file = join(dir, "idle.ts");
    await writeFile(
      file,
      "const wait: number = 60_000;\nsetTimeout(() => {}, wait);\nconsole.log('idle');\n",
    );
    const idle = start("tsx", ["--import", "tsx", file], { NODE_OPTIONS: "" });
    await until(async () => idle.lines.includes("idle"), "the tsx process to run", 60_000);
    const signs = typeScriptLoaderSigns(await inspect(await idle.inspector));
    expect(signs).toContain("node option --import");
    expect(signs.some((s) => s.startsWith("script ") && s.includes("/tsx/"))).toBe(true);
    expect(signs).toContain(`script file://${file}`);
  });
});
