import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createDb } from "@northstar/domain/db";
import { createSession } from "@northstar/domain/identity";
import { Redis } from "ioredis";
import { createTrader } from "../../packages/domain/src/spot/testing.ts";
import { freshPlatformDatabase } from "./database.ts";
import { processCpuSeconds } from "./process-cpu.ts";
import { sized } from "./smoke.ts";
import { type BenchResult, percentile } from "./types.ts";

/*
 * Signed-in users during a flood of anonymous sign-ins. One real API process (behind a "proxy":
 * TRUST_PROXY, so X-Forwarded-For gives each flood request its own address and no per-address limit
 * refuses it). Signed-in users call a cheap authenticated procedure (`identity.get`) at a fixed rate;
 * the median latency alone is measured, then the same load while `admin.login` attempts with wrong
 * passwords arrive at FLOOD_RATE per second from many addresses (each one a scrypt hash, the work
 * the hashing queue bounds). Alone and flood alternate REPEATS times; reported: the median of each
 * phase's p50 and their range, the flood's answers by code, and the API's CPU seconds.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const DATABASE_URL =
  process.env.BENCH_FLOOD_DATABASE_URL ??
  `postgresql://postgres@127.0.0.1:5432/northstar_bench_flood${sized("", "_smoke")}`;
const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const PORT = Number(process.env.BENCH_FLOOD_PORT ?? sized(3921, 3931));
const USERS = sized(50, 5);
const USER_RATE = Number(process.env.BENCH_FLOOD_USER_RATE ?? sized(8, 5));
const FLOOD_RATE = Number(process.env.BENCH_FLOOD_RATE ?? sized(40, 10));
const ADDRESSES = sized(500, 20);
const SECONDS = Number(process.env.BENCH_FLOOD_SECONDS ?? sized(10, 2));
const REPEATS = Number(process.env.BENCH_FLOOD_REPEATS ?? sized(3, 1));

async function freshDatabase() {
  await freshPlatformDatabase(DATABASE_URL);
}

function startApi(prefix: string): ChildProcess {
  return spawn(process.execPath, ["--import", "tsx", "apps/api/src/server.ts"], {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL,
      REDIS_URL,
      LOG_LEVEL: "warn",
      PORT: String(PORT),
      HOST: "127.0.0.1",
      REDIS_PREFIX: prefix,
      WEB_DIST: "",
      TRUST_PROXY: "true",
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
}

const userAgent = new http.Agent({ keepAlive: true, maxSockets: 64 });
const floodAgent = new http.Agent({ keepAlive: true, maxSockets: 512 });

/** One request; resolves with the latency in ms and the answer's error code ("OK" on success). */
function request(options: {
  agent: http.Agent;
  method: "GET" | "POST";
  path: string;
  headers: Record<string, string>;
  body?: string;
}): Promise<{ ms: number; code: string }> {
  const started = performance.now();
  return new Promise((resolve) => {
    const req = http.request(
      {
        agent: options.agent,
        host: "127.0.0.1",
        port: PORT,
        method: options.method,
        path: options.path,
        headers: {
          ...options.headers,
          ...(options.body ? { "content-length": Buffer.byteLength(options.body) } : {}),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (c: Buffer) => chunks.push(c));
        response.on("end", () => {
          let code = response.statusCode === 200 ? "OK" : `HTTP_${response.statusCode}`;
          try {
            const body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
            code = body?.error?.data?.errorCode ?? code;
          } catch {}
          resolve({ ms: performance.now() - started, code });
        });
      },
    );
    req.on("error", () => resolve({ ms: performance.now() - started, code: "NETWORK" }));
    req.end(options.body);
  });
}

/** Starts `run` at `rate` per second for `seconds`, whatever the answers (an open loop). */
async function openLoop<T>(rate: number, seconds: number, run: (i: number) => Promise<T>): Promise<T[]> {
  const started = performance.now();
  const total = Math.floor(rate * seconds);
  const inFlight: Promise<T>[] = [];
  for (let i = 0; i < total; i++) {
    const wait = started + (i * 1000) / rate - performance.now();
    if (wait > 1) {
      await new Promise((r) => setTimeout(r, wait));
    }
    inFlight.push(run(i));
  }
  return Promise.all(inFlight);
}

const median = (values: number[]) => percentile(Float64Array.from(values).sort(), 50);
const round = (n: number) => Number(n.toFixed(1));

export async function run(): Promise<BenchResult> {
  await freshDatabase();
  const prefix = `benchflood${Date.now()}`;
  const { db, close } = createDb(DATABASE_URL, { max: 4 });
  const tokens: string[] = [];
  for (let i = 0; i < USERS; i++) {
    const user = await createTrader(db, {});
    tokens.push(await createSession(db, user.id));
  }
  const api = startApi(prefix);
  const signedIn = (i: number) =>
    request({
      agent: userAgent,
      method: "GET",
      path: "/trpc/identity.get",
      headers: { authorization: `Bearer ${tokens[i % tokens.length]}`, "x-forwarded-for": "10.255.0.1" },
    });
  const floodLogin = (i: number) =>
    request({
      agent: floodAgent,
      method: "POST",
      path: "/trpc/admin.login",
      headers: {
        "content-type": "application/json",
        "x-forwarded-for": `10.${(i % ADDRESSES) >> 8}.${(i % ADDRESSES) & 255}.${1 + (i % 7)}`,
      },
      body: JSON.stringify({
        username: i % 2 === 0 ? "admin" : `guess-${randomBytes(3).toString("hex")}`,
        password: randomBytes(9).toString("base64url"),
      }),
    });
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
    await openLoop(USER_RATE, sized(3, 1), signedIn); // warm-up: JIT, pools
    const alone: number[] = [];
    const flooded: number[] = [];
    const floodCodes: Record<string, number> = {};
    const userCodes: Record<string, number> = {};
    const cpuBefore = processCpuSeconds(api.pid ?? 0);
    for (let r = 0; r < REPEATS; r++) {
      const quiet = await openLoop(USER_RATE, SECONDS, signedIn);
      alone.push(median(quiet.map((x) => x.ms)));
      const [busy, flood] = await Promise.all([
        openLoop(USER_RATE, SECONDS, signedIn),
        openLoop(FLOOD_RATE, SECONDS, floodLogin),
      ]);
      flooded.push(median(busy.map((x) => x.ms)));
      for (const x of [...quiet, ...busy]) {
        userCodes[x.code] = (userCodes[x.code] ?? 0) + 1;
      }
      for (const x of flood) {
        floodCodes[x.code] = (floodCodes[x.code] ?? 0) + 1;
      }
    }
    const apiCpuSeconds = round(processCpuSeconds(api.pid ?? 0) - cpuBefore);
    const p50Alone = round(median(alone));
    const p50Flood = round(median(flooded));
    const ratio = Number((p50Flood / p50Alone).toFixed(2));
    const range = (xs: number[]) => [round(Math.min(...xs)), round(Math.max(...xs))];
    return {
      summary: [
        `signed-in users at ${USER_RATE}/s, identity.get: p50 alone ${p50Alone} ms (range ${range(alone).join("–")}), during ${FLOOD_RATE}/s anonymous admin.login from ${ADDRESSES} addresses ${p50Flood} ms (range ${range(flooded).join("–")}); ${ratio}× over ${REPEATS} repeats of ${SECONDS} s`,
        `flood answers: ${JSON.stringify(floodCodes)}; signed-in answers: ${JSON.stringify(userCodes)}`,
        `API process CPU during the measured phases: ${apiCpuSeconds} s`,
      ],
      figures: {
        users: USERS,
        userRatePerSecond: USER_RATE,
        floodRatePerSecond: FLOOD_RATE,
        floodAddresses: ADDRESSES,
        secondsPerPhase: SECONDS,
        repeats: REPEATS,
        signedInP50Ms: {
          alone: { median: p50Alone, range: range(alone), runs: alone.map(round) },
          duringFlood: { median: p50Flood, range: range(flooded), runs: flooded.map(round) },
          ratio,
        },
        floodAnswers: floodCodes,
        signedInAnswers: userCodes,
        apiCpuSeconds,
      },
    };
  } finally {
    api.kill("SIGTERM");
    await once(api, "exit");
    const redis = new Redis(REDIS_URL);
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) {
      await redis.del(...keys);
    }
    redis.disconnect();
    await close();
  }
}
