import { type ChildProcess, spawn } from "node:child_process";
import { createHmac, randomBytes } from "node:crypto";
import { once } from "node:events";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { apiKeys, encryptApiSecret, useApiKeyKeyring } from "@northstar/domain/apikeys";
import { createDb } from "@northstar/domain/db";
import { createSession, sha256, TotpKeyring } from "@northstar/domain/identity";
import { setPolicy } from "@northstar/domain/policy";
import { mulberry32 } from "@northstar/shared/random";
import { Redis } from "ioredis";
import { createTrader } from "../../packages/domain/src/spot/testing.ts";
import { freshPlatformDatabase } from "./database.ts";
import { processCpuSeconds } from "./process-cpu.ts";
import { sized } from "./smoke.ts";
import type { BenchResult } from "./types.ts";

/*
 * The same limit orders placed through the Binance-compatible layer (signed POST /api/v3/order) and
 * through tRPC (`spot.place` with a session and an Idempotency-Key), against one real API process and
 * a real matcher. Phases alternate (binance, trpc, binance, …) so a change in the machine's load
 * touches both alike; reported per path: orders acknowledged per second and the API process's CPU per
 * order, as the median and range over the repeats, with the load average around each phase.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const DATABASE_URL =
  process.env.BENCH_BOTAPI_DATABASE_URL ??
  `postgresql://postgres@127.0.0.1:5432/northstar_bench_botapi${sized("", "_smoke")}`;
const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const PORT = Number(process.env.BENCH_BOTAPI_PORT ?? sized(3921, 3931));
const TRADERS = sized(40, 4);
const CONCURRENCY = Number(process.env.BENCH_BOTAPI_CONCURRENCY ?? sized(32, 4));
const SECONDS = Number(process.env.BENCH_BOTAPI_SECONDS ?? sized(8, 1));
const REPEATS = Number(process.env.BENCH_BOTAPI_REPEATS ?? sized(3, 1));

const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
const SALT = randomBytes(6).toString("base64url").replace(/[-_]/g, "x");
let seq = 0;

interface Trader {
  token: string;
  apiKey: string;
  secret: string;
}

/** A limit order around 60000 (BTCUSDT), 30% crossing the spread, as the spot-api bench places. */
function order(random: () => number) {
  const side = random() < 0.5 ? "buy" : "sell";
  const crossing = random() < 0.3;
  const offset = Math.floor(random() * 60000 * 0.005 * 100) / 100;
  const away = crossing ? -offset : offset + 0.01;
  const price = (side === "buy" ? 60000 - away : 60000 + away).toFixed(2);
  const quantity = ((1 + Math.floor(random() * 200)) / 100000).toFixed(5);
  return { side, price, quantity };
}

function post(pathName: string, body: string, headers: Record<string, string>): Promise<boolean> {
  return new Promise((resolve) => {
    const request = http.request(
      {
        agent,
        host: "127.0.0.1",
        port: PORT,
        method: "POST",
        path: pathName,
        headers: { ...headers, "content-length": Buffer.byteLength(body) },
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

const placeBinance = (t: Trader, o: ReturnType<typeof order>) => {
  const query = new URLSearchParams({
    symbol: "BTCUSDT",
    side: o.side.toUpperCase(),
    type: "LIMIT",
    timeInForce: "GTC",
    price: o.price,
    quantity: o.quantity,
    newClientOrderId: `b${(++seq).toString(36)}${SALT}`,
    timestamp: String(Date.now()),
    recvWindow: "60000",
  }).toString();
  const signature = createHmac("sha256", t.secret).update(query).digest("hex");
  return post("/api/v3/order", `${query}&signature=${signature}`, {
    "content-type": "application/x-www-form-urlencoded",
    "x-mbx-apikey": t.apiKey,
  });
};

const placeTrpc = (t: Trader, o: ReturnType<typeof order>) =>
  post("/trpc/spot.place", JSON.stringify({ symbol: "BTCUSDT", type: "limit", ...o }), {
    "content-type": "application/json",
    token: t.token,
    "idempotency-key": `t${(++seq).toString(36)}${SALT}`,
  });

async function phase(traders: Trader[], place: typeof placeBinance, apiPid: number, seed: number) {
  const random = mulberry32(seed);
  let accepted = 0;
  let failed = 0;
  let next = 0;
  const load = os.loadavg()[0] ?? 0;
  const cpuBefore = processCpuSeconds(apiPid);
  const started = performance.now();
  const end = started + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < end) {
        const trader = traders[next++ % traders.length] as Trader;
        if (await place(trader, order(random))) {
          accepted++;
        } else {
          failed++;
        }
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const cpu = processCpuSeconds(apiPid) - cpuBefore;
  return {
    ordersPerSec: Math.round(accepted / seconds),
    apiCpuMsPerOrder: Number(((cpu * 1000) / Math.max(1, accepted)).toFixed(3)),
    accepted,
    failed,
    loadAverage: [Number(load.toFixed(2)), Number((os.loadavg()[0] ?? 0).toFixed(2))],
  };
}

const stats = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const median =
    sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
  return { median: Number(median.toFixed(3)), min: sorted[0] ?? 0, max: sorted[sorted.length - 1] ?? 0 };
};

/** `BENCH_CPU_PROF=<folder>` writes the API process's CPU profile there (node --cpu-prof). */
function start(script: string, env: Record<string, string>, profile = false): ChildProcess {
  const prof =
    profile && process.env.BENCH_CPU_PROF
      ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`]
      : [];
  return spawn(process.execPath, [...prof, "--import", "tsx", script], {
    cwd: root,
    env: { ...process.env, DATABASE_URL, REDIS_URL, LOG_LEVEL: "warn", ...env },
    stdio: ["ignore", "ignore", "inherit"],
  });
}

export async function run(): Promise<BenchResult> {
  await freshPlatformDatabase(DATABASE_URL);
  const encryptionKey = randomBytes(32);
  useApiKeyKeyring(new TotpKeyring([encryptionKey]));
  const prefix = `benchbot${Date.now()}`;
  const redis = new Redis(REDIS_URL);
  const { db, close } = createDb(DATABASE_URL, { max: 4 });
  await setPolicy(db, "apikeys.requestsPerSecond", 10_000, "bench");
  await setPolicy(db, "apikeys.ordersPerSecond", 10_000, "bench");
  const traders: Trader[] = [];
  for (let i = 0; i < TRADERS; i++) {
    const user = await createTrader(db, { USDT: "100000000", BTC: "1000" });
    const apiKey = randomBytes(48).toString("hex").slice(0, 64);
    const secret = randomBytes(48).toString("hex").slice(0, 64);
    await db.insert(apiKeys).values({
      userId: user.id,
      label: "bench",
      keyHash: sha256(apiKey),
      keyPrefix: apiKey.slice(0, 8),
      secretEncrypted: encryptApiSecret(secret, user.id),
      permissions: ["read", "spot_trade"],
    });
    traders.push({ token: await createSession(db, user.id), apiKey, secret });
  }
  const api = start(
    "apps/api/src/server.ts",
    {
      PORT: String(PORT),
      HOST: "127.0.0.1",
      REDIS_PREFIX: prefix,
      WEB_DIST: "",
      API_KEY_ENCRYPTION_KEY: encryptionKey.toString("base64"),
    },
    true,
  );
  const worker = start("apps/worker/src/main.ts", { REDIS_PREFIX: prefix, WORKER_ROLES: "spot-matcher" });
  try {
    for (let i = 0; ; i++) {
      try {
        if ((await fetch(`http://127.0.0.1:${PORT}/health`)).ok) {
          break;
        }
      } catch {}
      if (i > 900) {
        throw new Error("API did not start in 90 s");
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    const pid = api.pid ?? 0;
    // Warm-up of both paths: JIT, pools, caches.
    await phase(traders, placeBinance, pid, 1);
    await phase(traders, placeTrpc, pid, 1);
    const binance = [];
    const trpc = [];
    for (let r = 0; r < REPEATS; r++) {
      binance.push(await phase(traders, placeBinance, pid, 10 + r));
      trpc.push(await phase(traders, placeTrpc, pid, 10 + r));
    }
    const of = (runs: Awaited<ReturnType<typeof phase>>[]) => ({
      ordersPerSec: stats(runs.map((x) => x.ordersPerSec)),
      apiCpuMsPerOrder: stats(runs.map((x) => x.apiCpuMsPerOrder)),
      failed: runs.reduce((n, x) => n + x.failed, 0),
      runs,
    });
    const figures = {
      traders: TRADERS,
      concurrency: CONCURRENCY,
      secondsPerPhase: SECONDS,
      repeats: REPEATS,
      binance: of(binance),
      trpc: of(trpc),
    };
    const line = (name: string, f: ReturnType<typeof of>) =>
      `${name}: ${f.ordersPerSec.median} orders/s (${f.ordersPerSec.min}–${f.ordersPerSec.max}), API CPU ${f.apiCpuMsPerOrder.median} ms/order (${f.apiCpuMsPerOrder.min}–${f.apiCpuMsPerOrder.max}), ${f.failed} failed`;
    return {
      summary: [
        `${REPEATS} alternating repeats of ${SECONDS} s, ${CONCURRENCY} in flight, ${TRADERS} traders`,
        line("signed POST /api/v3/order", figures.binance),
        line("tRPC spot.place", figures.trpc),
      ],
      figures,
    };
  } finally {
    api.kill("SIGTERM");
    worker.kill("SIGTERM");
    await Promise.all([once(api, "exit"), once(worker, "exit")]);
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) {
      await redis.del(...keys);
    }
    redis.disconnect();
    await close();
  }
}
