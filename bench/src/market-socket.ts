import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { readdirSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ChannelPublisher } from "@northstar/domain/markets";
import type { Ticker } from "@northstar/shared/markets";
import { Redis } from "ioredis";
import { recreateDatabase } from "./database.ts";
import { processCpuSeconds } from "./process-cpu.ts";
import { sized } from "./smoke.ts";
import { type BenchResult, percentile } from "./types.ts";

/*
 * How many market-socket clients one API process serves with every instrument's ticker once a
 * second, and the delay from publish to client. One real API process (apps/api/src/server.ts) serves
 * the socket; this process publishes the tickers through Redis exactly as the worker does, `ts` being
 * taken when the tick is published; client processes (socket-clients.ts) hold real WebSocket
 * connections over TCP and take the delay when a frame's last byte has arrived.
 *
 * The API's open-file limit bounds the clients it can hold at all: it is started with its soft limit
 * raised to the hard one, and the limit is recorded. Everything runs on one machine, so the clients
 * share the cores with the API; the CPU each side used, and what the rest of the machine used
 * meanwhile, is recorded per level with the spread of each tick's arrivals (first to last client).
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const DATABASE_URL =
  process.env.BENCH_DATABASE_URL ??
  `postgresql://postgres@127.0.0.1:5432/northstar_bench${sized("", "_smoke")}`;
const PORT = Number(process.env.BENCH_PORT ?? sized(3900, 3910));
const INSTRUMENTS = Number(process.env.BENCH_INSTRUMENTS ?? 107);
const SECONDS = Number(process.env.BENCH_SECONDS ?? sized(20, 3));
const LEVELS = (process.env.BENCH_CLIENTS ?? sized("2000,5000,10000,19900", "100,200"))
  .split(",")
  .map(Number);
/** Each level is run this many times (a fresh API each round); figures give the median and range. */
const REPEATS = Number(process.env.BENCH_REPEATS ?? sized(3, 1));
/**
 * A checkout of the code to compare with (e.g. a worktree of the main branch): its API is run as
 * `before`, in the same rounds as this one's, so both meet the same machine load.
 */
const BASELINE_ROOT = process.env.BENCH_BASELINE_ROOT ?? "";
/**
 * `before`: the baseline's API; `after`: this checkout's, clients offering permessage-deflate as
 * browsers do; `after-plain`: the same with clients that do not, so every frame goes uncompressed;
 * `after-2p`: this checkout's API with the socket served by two child processes
 * (MARKET_SOCKET_PROCESSES=2), its CPU and memory counted with the API's; `floor`: in the API's
 * place a bare Node writer (socket-floor.ts) sending the same frames to the same clients with one
 * `socket.write` each and nothing else, so the figures show what any Node server costs on this
 * machine and what the API adds to it.
 */
const KNOWN_VARIANTS = ["before", "after", "after-plain", "after-2p", "floor"];
const VARIANTS = (process.env.BENCH_VARIANTS ?? (BASELINE_ROOT ? "before,after,floor" : "after,floor"))
  .split(",")
  .filter((v) => KNOWN_VARIANTS.includes(v) && (v !== "before" || BASELINE_ROOT));
const CLIENT_PROCESSES = Number(process.env.BENCH_CLIENT_PROCESSES ?? sized(2, 1));
/** Longest wait for a client process's answer (connecting 19,900 clients takes 26–37 s here). */
const MESSAGE_TIMEOUT_MS = 5 * 60_000;

/** The process and its descendants (the API's socket processes). */
function processTree(pid: number): number[] {
  const pids = [pid];
  for (let i = 0; i < pids.length; i++) {
    try {
      for (const task of readdirSync(`/proc/${pids[i]}/task`)) {
        const children = readFileSync(`/proc/${pids[i]}/task/${task}/children`, "utf8").trim();
        if (children) {
          pids.push(...children.split(/\s+/).map(Number));
        }
      }
    } catch {}
  }
  return pids;
}
function treeCpuSeconds(pid: number): number {
  return processTree(pid).reduce((n, p) => n + processCpuSeconds(p), 0);
}
/** Busy and total CPU time of the whole machine, in clock ticks (the first line of /proc/stat). */
function machineTicks(): { busy: number; total: number } {
  const fields = (readFileSync("/proc/stat", "utf8").split("\n")[0] ?? "")
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  const total = fields.reduce((a, b) => a + b, 0);
  const idle = (fields[3] ?? 0) + (fields[4] ?? 0);
  return { busy: total - idle, total };
}
/** The soft open-file limit of a process. */
function openFileLimit(pid: number): number {
  const line = readFileSync(`/proc/${pid}/limits`, "utf8")
    .split("\n")
    .find((l) => l.startsWith("Max open files"));
  return Number(line?.split(/\s+/)[3] ?? Number.NaN);
}
function rssMiB(pid: number): number {
  return processTree(pid).reduce((n, p) => {
    try {
      return n + processRssMiB(p);
    } catch {
      return n;
    }
  }, 0);
}
function processRssMiB(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, "utf8")
    .split("\n")
    .find((l) => l.startsWith("VmRSS:"));
  return Math.round(Number(line?.split(/\s+/)[1] ?? 0) / 1024);
}

/**
 * Starts the API of `apiRoot`, or with `floor` the bare writer (socket-floor.ts) in its place, on the
 * same port, limits and environment.
 */
async function startApi(
  prefix: string,
  apiRoot: string,
  socketProcesses: number,
  floor = false,
): Promise<ChildProcess> {
  // Through a shell that raises the soft open-file limit to the hard one (one socket is one file),
  // and the hard one to 65536 first where it may (as root): 20,000 clients need ~30 files more.
  const raiseLimit =
    'h=$(ulimit -Hn); [ "$h" != unlimited ] && [ "$h" -lt 65536 ] && ulimit -Hn 65536 2>/dev/null; ' +
    'ulimit -n "$(ulimit -Hn)" 2>/dev/null; exec "$0" "$@"';
  const script = floor ? path.join(root, "bench/src/socket-floor.ts") : "apps/api/src/server.ts";
  const api = spawn("sh", ["-c", raiseLimit, process.execPath, "--import", "tsx", script], {
    cwd: apiRoot,
    env: {
      ...process.env,
      PORT: String(PORT),
      HOST: "0.0.0.0",
      DATABASE_URL,
      REDIS_URL,
      REDIS_PREFIX: prefix,
      LOG_LEVEL: "warn",
      WEB_DIST: "",
      MARKET_SOCKET_PROCESSES: String(socketProcesses),
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
  // Up to 90 s: on a busy machine loading the API's TypeScript alone can take most of a minute.
  for (let i = 0; i < 900; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${PORT}/health`)).ok) {
        return api;
      }
    } catch {}
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("API did not start in 90 s");
}

/**
 * A client process's next `cmd` message. Bounded in time: a client that never gets its snapshot
 * would otherwise hold the bench (and the machine) forever; the level fails with the reason instead.
 */
function message<T>(child: ChildProcess, cmd: string, timeoutMs = MESSAGE_TIMEOUT_MS): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.off("message", on);
      reject(new Error(`client process ${child.pid}: no "${cmd}" within ${timeoutMs / 1000} s`));
    }, timeoutMs);
    const on = (m: { cmd: string }) => {
      if (m.cmd === cmd) {
        clearTimeout(timer);
        child.off("message", on);
        resolve(m as T);
      }
    };
    child.on("message", on);
  });
}

function tickers(round: number): Ticker[] {
  return Array.from({ length: INSTRUMENTS }, (_, i) => {
    const p = (1000 + i + round / 100).toFixed(2);
    return {
      s: `SYM${i}USDT`,
      p,
      o: "1000.00",
      h: p,
      l: "999.00",
      v: "12345.678",
      q: "12345678.90",
      c: "1.25",
      t: Date.now(),
      x: true,
    };
  });
}

function spread(values: number[]): { min: number; median: number; max: number } {
  const sorted = Float64Array.from(values).sort();
  return { min: sorted[0] ?? Number.NaN, median: percentile(sorted, 50), max: percentile(sorted, 100) };
}

interface ClientReport {
  delays: number[];
  spread: Record<string, [number, number]>;
  frames: number;
  bytes: number;
  gaps: number;
  closed: number;
  closedBySlowness: number;
}

async function runLevel(clients: number, prefix: string, redis: Redis, apiPid: number, plain: boolean) {
  const children: ChildProcess[] = [];
  try {
    return await measureLevel(clients, prefix, redis, apiPid, plain, children);
  } catch (error) {
    // A failed level (a client process that never answered) leaves no client process behind.
    for (const child of children) {
      child.kill("SIGKILL");
    }
    throw error;
  }
}

async function measureLevel(
  clients: number,
  prefix: string,
  redis: Redis,
  apiPid: number,
  plain: boolean,
  children: ChildProcess[],
) {
  const loadAverage1m = Math.round((os.loadavg()[0] ?? 0) * 100) / 100;
  const publisher = new ChannelPublisher(redis, prefix);
  publisher.publish("tickers", tickers(0));
  await publisher.flush();
  for (let i = 0; i < CLIENT_PROCESSES; i++) {
    const share = Math.floor(clients / CLIENT_PROCESSES) + (i < clients % CLIENT_PROCESSES ? 1 : 0);
    // Each client process connects from its own loopback address, so ephemeral ports never run out.
    const args = [
      "--import",
      "tsx",
      path.join(root, "bench/src/socket-clients.ts"),
      `ws://127.0.0.1:${PORT}/ws`,
      String(share),
      `127.0.0.${2 + i}`,
      plain ? "plain" : "deflate",
    ];
    const child = spawn(process.execPath, args, { stdio: ["ignore", "inherit", "inherit", "ipc"] });
    await message(child, "ready");
    children.push(child);
  }
  const connectStarted = Date.now();
  const connected = await Promise.all(
    children.map(async (c) => {
      const done = message<{ snapshots: number; closed: number }>(c, "connected");
      c.send({ cmd: "connect" });
      return done;
    }),
  );
  const connectSeconds = (Date.now() - connectStarted) / 1000;
  const subscribed = connected.reduce((n, c) => n + c.snapshots, 0);
  for (const c of children) {
    c.send({ cmd: "record" });
  }
  await new Promise((r) => setTimeout(r, 500));
  const childPids = children.map((c) => c.pid as number);
  const cpuBefore = treeCpuSeconds(apiPid);
  const clientsCpuBefore = childPids.reduce((n, pid) => n + processCpuSeconds(pid), 0);
  const machineBefore = machineTicks();
  const started = Date.now();
  let frameBytes = 0;
  for (let round = 1; round <= SECONDS; round++) {
    const all = tickers(round);
    const published = publisher.publish("tickers", all, all);
    frameBytes = Buffer.byteLength(
      JSON.stringify({ main_type: 5, utime: Math.floor(Date.now() / 1000), ...published }),
    );
    await publisher.flush();
    await new Promise((r) => setTimeout(r, started + round * 1000 - Date.now()));
  }
  await new Promise((r) => setTimeout(r, 1000));
  const seconds = (Date.now() - started) / 1000;
  const cpu = (treeCpuSeconds(apiPid) - cpuBefore) / seconds;
  const clientsCpu =
    (childPids.reduce((n, pid) => n + processCpuSeconds(pid), 0) - clientsCpuBefore) / seconds;
  const machineAfter = machineTicks();
  // /proc/stat counts every core: busy share of all cores times the number of cores.
  const machineCpu =
    ((machineAfter.busy - machineBefore.busy) / (machineAfter.total - machineBefore.total)) *
    os.cpus().length;
  const rss = rssMiB(apiPid);
  const reports = await Promise.all(
    children.map(async (c) => {
      const done = message<ClientReport>(c, "report");
      c.send({ cmd: "report" });
      return done;
    }),
  );
  for (const c of children) {
    c.send({ cmd: "close" });
  }
  await Promise.all(children.map((c) => once(c, "exit")));
  const delays = Float64Array.from(reports.flatMap((r) => r.delays)).sort();
  const frames = reports.reduce((n, r) => n + r.frames, 0);
  const expected = subscribed * SECONDS;
  // Per tick: when the first and the last client had the complete frame, ms after publishing.
  const ticks = new Map<string, [number, number]>();
  for (const report of reports) {
    for (const [seq, [first, last]] of Object.entries(report.spread)) {
      const range = ticks.get(seq);
      ticks.set(seq, range ? [Math.min(range[0], first), Math.max(range[1], last)] : [first, last]);
    }
  }
  return {
    clients,
    /** the machine's 1-minute load average when the level started */
    loadAverage1m,
    subscribed,
    connectSeconds,
    framesReceived: frames,
    framesExpected: expected,
    /** every byte the clients read, snapshots and handshakes included */
    bytesReceived: reports.reduce((n, r) => n + r.bytes, 0),
    sequenceGaps: reports.reduce((n, r) => n + r.gaps, 0),
    closedBySlowness: reports.reduce((n, r) => n + r.closedBySlowness, 0),
    closedOtherwise: reports.reduce((n, r) => n + r.closed - r.closedBySlowness, 0),
    delayMs: {
      p50: percentile(delays, 50),
      p90: percentile(delays, 90),
      p99: percentile(delays, 99),
      max: delays[delays.length - 1] ?? Number.NaN,
    },
    /** per tick, the delay of the first and of the last client to have the frame: min, median, max */
    firstClientMs: spread([...ticks.values()].map((t) => t[0])),
    lastClientMs: spread([...ticks.values()].map((t) => t[1])),
    apiCpuCores: Number(cpu.toFixed(2)),
    /** the API's CPU time per tick and client: the cost of one client's frame, heartbeats included */
    apiCpuMicrosPerClientTick: Math.round(((cpu * seconds) / SECONDS / Math.max(1, subscribed)) * 1e6),
    clientProcessesCpuCores: Number(clientsCpu.toFixed(2)),
    machineCpuCores: Number(machineCpu.toFixed(2)),
    /** everything else on the machine meanwhile: Redis, the publishing process, other workloads */
    otherCpuCores: Number(Math.max(0, machineCpu - cpu - clientsCpu).toFixed(2)),
    apiRssMiB: rss,
    frameBytes,
  };
}

type Level = Awaited<ReturnType<typeof runLevel>>;

function within(l: Level): boolean {
  return (
    l.delayMs.p99 < 100 &&
    l.framesReceived === l.framesExpected &&
    l.subscribed === l.clients &&
    l.sequenceGaps === 0
  );
}

/** Median and range over the rounds of one figure. */
function over(levels: Level[], pick: (l: Level) => number) {
  const s = spread(levels.map(pick));
  return { median: s.median, min: s.min, max: s.max };
}

function summarize(levels: Level[]) {
  return {
    clients: levels[0]?.clients ?? 0,
    rounds: levels.length,
    p50Ms: over(levels, (l) => l.delayMs.p50),
    p99Ms: over(levels, (l) => l.delayMs.p99),
    lastClientMedianMs: over(levels, (l) => l.lastClientMs.median),
    apiCpuMicrosPerClientTick: over(levels, (l) => l.apiCpuMicrosPerClientTick),
    apiCpuCores: over(levels, (l) => l.apiCpuCores),
    clientProcessesCpuCores: over(levels, (l) => l.clientProcessesCpuCores),
    otherCpuCores: over(levels, (l) => l.otherCpuCores),
    loadAverage1m: over(levels, (l) => l.loadAverage1m),
    /** summed over the rounds */
    sequenceGaps: levels.reduce((n, l) => n + l.sequenceGaps, 0),
    framesLost: levels.reduce((n, l) => n + l.framesExpected - l.framesReceived, 0),
    closedBySlowness: levels.reduce((n, l) => n + l.closedBySlowness, 0),
    bytesPerFrame: Math.round(
      levels.reduce((n, l) => n + l.bytesReceived, 0) /
        Math.max(
          1,
          levels.reduce((n, l) => n + l.framesReceived, 0),
        ),
    ),
    apiRssMiB: over(levels, (l) => l.apiRssMiB),
    withinTargetRounds: levels.filter(within).length,
  };
}

export async function run(): Promise<BenchResult> {
  await recreateDatabase(DATABASE_URL);
  const redis = new Redis(REDIS_URL);
  const results = new Map<string, Map<number, Level[]>>(VARIANTS.map((v) => [v, new Map()]));
  let apiOpenFileLimit = 0;
  try {
    // Rounds outermost, variants inside: each variant meets the machine's load of the same minutes.
    for (let round = 1; round <= REPEATS; round++) {
      for (const variant of VARIANTS) {
        const prefix = `bench${Date.now()}`;
        const api = await startApi(
          prefix,
          variant === "before" ? BASELINE_ROOT : root,
          variant === "after-2p" ? 2 : 0,
          variant === "floor",
        );
        apiOpenFileLimit = openFileLimit(api.pid as number);
        try {
          for (const clients of LEVELS) {
            const level = await runLevel(
              clients,
              prefix,
              redis,
              api.pid as number,
              variant === "after-plain",
            );
            const list = results.get(variant)?.get(clients) ?? [];
            list.push(level);
            results.get(variant)?.set(clients, list);
            console.log(
              `round ${round} ${variant} ${level.subscribed} clients (load ${level.loadAverage1m}): p50 ${level.delayMs.p50} ms, p99 ${level.delayMs.p99} ms, ` +
                `max ${level.delayMs.max} ms, ${level.framesReceived}/${level.framesExpected} frames, ${level.sequenceGaps} gaps, ` +
                `API ${level.apiCpuCores} cores = ${level.apiCpuMicrosPerClientTick} µs per client-tick, ${level.apiRssMiB} MiB, ` +
                `clients ${level.clientProcessesCpuCores} cores, rest of the machine ${level.otherCpuCores} cores`,
            );
            await new Promise((r) => setTimeout(r, 2000));
          }
        } finally {
          api.kill("SIGTERM");
          await once(api, "exit");
          const keys = await redis.keys(`${prefix}*`);
          if (keys.length) {
            await redis.del(...keys);
          }
        }
      }
    }
  } finally {
    redis.disconnect();
  }
  const variants = Object.fromEntries(
    [...results].map(([variant, byClients]) => {
      const summaries = [...byClients.values()].map(summarize);
      // The most clients every round served with p99 < 100 ms and nothing lost.
      const best = summaries.filter((s) => s.withinTargetRounds === s.rounds).at(-1);
      return [
        variant,
        {
          maxClientsWithinTarget: best?.clients ?? 0,
          levels: summaries,
          rounds: [...byClients.values()],
        },
      ];
    }),
  );
  const range = (f: { median: number; min: number; max: number }) => `${f.median} (${f.min}–${f.max})`;
  return {
    summary: [
      `instruments per tickers frame: ${INSTRUMENTS}, one frame per client per second, ${SECONDS} s per level, ` +
        `${REPEATS} rounds, ${CLIENT_PROCESSES} client processes, API open-file limit ${apiOpenFileLimit}; ` +
        "figures are median (min–max) over the rounds",
      ...Object.entries(variants).flatMap(([variant, v]) => [
        `${variant}: most clients within p99 < 100 ms with nothing lost in every round: ${v.maxClientsWithinTarget}`,
        ...v.levels.map(
          (l) =>
            `  ${String(l.clients).padStart(6)} clients  p99 ${range(l.p99Ms)} ms  p50 ${range(l.p50Ms)} ms  ` +
            `API ${range(l.apiCpuMicrosPerClientTick)} µs/client-tick (${range(l.apiCpuCores)} cores)  ` +
            `gaps ${l.sequenceGaps}  lost ${l.framesLost}  ${l.bytesPerFrame} B/frame  load ${range(l.loadAverage1m)}  ` +
            `clients ${range(l.clientProcessesCpuCores)} cores, rest ${range(l.otherCpuCores)} cores`,
        ),
      ]),
    ],
    figures: {
      instruments: INSTRUMENTS,
      seconds: SECONDS,
      rounds: REPEATS,
      clientProcesses: CLIENT_PROCESSES,
      apiOpenFileLimit,
      baseline: BASELINE_ROOT ? "the main branch before this change (BENCH_BASELINE_ROOT)" : null,
      variants,
      maxClientsWithinTarget: variants.after?.maxClientsWithinTarget ?? 0,
    },
  };
}
