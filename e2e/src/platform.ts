import { type ChildProcess, execFile, spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createServer } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import pg from "pg";
import { type Browser, type BrowserContext, chromium } from "playwright-core";
import { startMailbox } from "../../packages/domain/src/test-support/index.ts";
import { nodeArgs } from "../../scripts/compiled.mjs";

export const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/**
 * Where screenshots go: docs/screenshots (the pages as the docs show them), unless
 * E2E_SCREENSHOTS_DIR names another folder. `pnpm test` sends the suite's there
 * (test-results/screenshots), so a test run leaves the committed images alone; `pnpm test:e2e` and
 * `pnpm --filter @northstar/e2e screenshots` refresh them.
 */
export function screenshotsDir(...parts: string[]): string {
  return join(process.env.E2E_SCREENSHOTS_DIR ?? join(ROOT, "docs/screenshots"), ...parts);
}

const execFileAsync = promisify(execFile);

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

function databaseUrl(name: string): string {
  const url = new URL(process.env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres");
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * Starts the platform the way `pnpm start` does (setup, API serving the built web, worker, compiled
 * JavaScript under plain node; the global setup compiles it once) with a fresh database, its own Redis prefix and a real SMTP server, and a headless Chromium.
 */
export async function startPlatform(options: { env?: Record<string, string> } = {}) {
  const dbName = `northstar_e2e_${randomBytes(5).toString("hex")}`;
  const port = await freePort();
  const mailbox = await startMailbox();
  const env = {
    ...process.env,
    DATABASE_URL: databaseUrl(dbName),
    REDIS_PREFIX: `e2e:${dbName}`,
    SMTP_URL: mailbox.url,
    PORT: String(port),
    HOST: "127.0.0.1",
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    // A run may serve its own build, so a rebuild of the shared one cannot pull assets from under it.
    WEB_DIST: process.env.WEB_DIST ?? `${ROOT}apps/web/dist`,
    UPLOAD_DIR: `/tmp/${dbName}-uploads`,
    LOG_LEVEL: "warn",
    ...options.env,
  };
  const setup = spawnSync(process.execPath, nodeArgs("setup", { compiled: true }), {
    cwd: ROOT,
    env,
    encoding: "utf8",
  });
  if (setup.status !== 0) {
    throw new Error(`setup failed: ${setup.stderr}`);
  }
  const operatorPassword = /password: (\S+)/.exec(setup.stdout)?.[1] ?? "";
  const processes: ChildProcess[] = [
    spawn(process.execPath, nodeArgs("api", { compiled: true }), {
      cwd: ROOT,
      env,
      stdio: ["ignore", "inherit", "inherit"],
    }),
    spawn(process.execPath, nodeArgs("worker", { compiled: true }), {
      cwd: ROOT,
      env,
      stdio: ["ignore", "ignore", "inherit"],
    }),
  ];
  const baseUrl = `http://127.0.0.1:${port}`;
  // If anything below fails, the processes must not outlive the test run.
  const stop = () => {
    for (const p of processes) {
      p.kill("SIGTERM");
    }
  };
  process.once("exit", stop);
  try {
    return await connect();
  } catch (error) {
    stop();
    throw error;
  }

  async function connect() {
    const deadline = Date.now() + 120_000;
    for (;;) {
      try {
        const res = await fetch(`${baseUrl}/health`);
        if (res.ok) {
          break;
        }
      } catch {
        // not up yet
      }
      if (Date.now() > deadline) {
        throw new Error("platform did not start in 120 s");
      }
      await new Promise((r) => setTimeout(r, 250));
    }

    const browser: Browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    });

    /**
     * Runs the operator CLI (`pnpm admin …`) against this platform, with `extra` added to its
     * environment only (a key the command alone reads); rejects when it exits non-zero. Asynchronous,
     * so a test's in-process chain node keeps answering the command meanwhile.
     */
    const adminWithEnv = async (extra: Record<string, string>, ...args: string[]): Promise<string> => {
      try {
        const { stdout } = await execFileAsync(
          process.execPath,
          [...nodeArgs("admin", { compiled: true }), ...args],
          { cwd: ROOT, env: { ...env, ...extra }, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 },
        );
        return stdout;
      } catch (error) {
        const { stdout = "", stderr = "" } = error as { stdout?: string; stderr?: string };
        throw new Error(`pnpm admin ${args.join(" ")} failed: ${stderr}${stdout}`);
      }
    };
    /** Runs the operator CLI (`pnpm admin …`) against this platform; rejects when it exits non-zero. */
    const admin = (...args: string[]) => adminWithEnv({}, ...args);

    return {
      baseUrl,
      /** The platform's own database, for tests that drive what the worker would record. */
      databaseUrl: env.DATABASE_URL,
      mailbox,
      operatorPassword,
      browser,
      admin,
      adminWithEnv,
      async newContext(options: { width?: number; height?: number } = {}): Promise<BrowserContext> {
        return browser.newContext({
          baseURL: baseUrl,
          // The app then turns antd's motion off: a drawer or dialog is open or gone at once. Under load a
          // drawer was once left half-way through its closing slide for 15 s, failing the test.
          reducedMotion: "reduce",
          viewport: { width: options.width ?? 1280, height: options.height ?? 860 },
        });
      },
      async close() {
        await browser.close();
        for (const p of processes) {
          p.kill("SIGTERM");
        }
        await Promise.all(
          processes.map((p) => new Promise((r) => (p.exitCode !== null ? r(null) : p.once("exit", r)))),
        );
        await mailbox.close();
        const client = new pg.Client({ connectionString: databaseUrl("postgres") });
        await client.connect();
        await client.query(`drop database if exists "${dbName}" with (force)`);
        await client.end();
      },
    };
  }
}

export type Platform = Awaited<ReturnType<typeof startPlatform>>;
