import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import {
  type ContractPositionRow,
  openContractPosition,
  recordContractTicks,
  triggerAt,
} from "@northstar/domain/contracts";
import type { Db } from "@northstar/domain/db";
import { shardOf } from "@northstar/domain/leases";
import { reconcileLedger } from "@northstar/domain/ledger";
import { MoneyDecimal } from "@northstar/shared/money";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newContractUser } from "../../../packages/domain/src/contracts/testing.ts";
import { compiledEntry, testRedisUrl, until } from "../../../packages/domain/src/test-support/index.ts";
import { useWorkerTestBed, type WorkerTestBed } from "./test/queue-test-bed.ts";

/*
 * The risk engine split over two shards by instrument (CONTRACT_RISK_SHARDS=2), each its own lease
 * and cursor: worker A holds one shard (CONTRACT_RISK_MAX_SHARDS=1), worker B the other. A is killed
 * (SIGKILL) while the recorded price stream goes on; B takes A's shard over from its stored cursor
 * and serves both. Every TP, SL and liquidation happens exactly once, at the first tick that crosses
 * it, as a reference computed from the same ticks says.
 */
const ROOT = fileURLToPath(new URL("../../..", import.meta.url));
const SHARDS = 2;
// Two instruments in each shard (shardOf with two shards: BTCUSDT and ETHUSDT 0, BCHUSDT and ETCUSDT 1).
const SYMBOLS = ["BTCUSDT", "ETHUSDT", "BCHUSDT", "ETCUSDT"];
const START: Record<string, string> = { BTCUSDT: "90000", ETHUSDT: "3000", BCHUSDT: "520", ETCUSDT: "13" };

const bed = useWorkerTestBed("contract-risk-shards");
const { prefix } = bed;
let db: Db;
let pool: WorkerTestBed["pool"];
let url: string;
const children: ChildProcess[] = [];

beforeAll(() => {
  ({ db, pool, databaseUrl: url } = bed);
});
afterAll(() => {
  for (const child of children) {
    child.kill("SIGKILL");
  }
});

function startWorker(
  name: string,
  extra: Record<string, string> = {},
): { child: ChildProcess; lines: string[] } {
  const lines: string[] = [];
  const child = spawn(process.execPath, compiledEntry("apps/worker/src/main.ts"), {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_URL: url,
      REDIS_URL: testRedisUrl(),
      REDIS_PREFIX: prefix,
      WORKER_ROLES: "contract-risk",
      LEASE_TTL_MS: "1500",
      CONTRACT_RISK_SHARDS: String(SHARDS),
      ...extra,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  for (const stream of [child.stdout, child.stderr]) {
    stream?.on("data", (chunk: Buffer) =>
      lines.push(
        ...chunk
          .toString()
          .split("\n")
          .map((l) => `${name}: ${l}`),
      ),
    );
  }
  return { child, lines };
}

/** The cursor of one shard's engine (-1 before it first started). */
const cursor = async (shard: number) =>
  Number(
    (
      await pool.query<{ tick_id: number }>("select tick_id from contract_engine_cursor where name = $1", [
        `main:${shard}/${SHARDS}`,
      ])
    ).rows[0]?.tick_id ?? -1,
  );

/** The shards a worker's output says its engines started for. */
const started = (lines: string[]) =>
  lines.flatMap((l) => {
    const match = new RegExp(`contract risk engine (\\d+)/${SHARDS} started`).exec(l);
    return match ? [Number(match[1])] : [];
  });

/** A deterministic walk per symbol: ±1.5% steps. */
function pricePath(count: number, seed: number) {
  let s = seed;
  const rnd = () => {
    s = (s * 1_103_515_245 + 12_345) % 2_147_483_648;
    return s / 2_147_483_648;
  };
  const prices = Object.fromEntries(SYMBOLS.map((sym) => [sym, new MoneyDecimal(START[sym] as string)]));
  const out: { symbol: string; price: string }[] = [];
  for (let i = 0; i < count; i++) {
    const symbol = SYMBOLS[i % SYMBOLS.length] as string;
    const step = Math.round((rnd() - 0.5) * 300) / 10_000;
    prices[symbol] = (prices[symbol] as MoneyDecimal).times(1 + step).toDecimalPlaces(2);
    out.push({ symbol, price: (prices[symbol] as MoneyDecimal).toFixed() });
  }
  return out;
}

describe("the contract risk engine in shards", () => {
  it("splits the instruments over two workers; one is killed mid-stream, the other takes its shard with no trigger missed or doubled", async () => {
    expect(new Set(SYMBOLS.map((s) => shardOf(s, SHARDS)))).toEqual(new Set([0, 1]));
    await recordContractTicks(
      db,
      SYMBOLS.map((symbol) => ({ symbol, price: START[symbol] as string, time: Date.now() })),
    );
    const user = await newContractUser(db, "10000000");
    // Opening prices and leverage vary, so triggers fall all along the path.
    for (let i = 0; i < 48; i++) {
      if (i > 0 && i % 8 === 0) {
        // Orders open at a fresh recorded price (a stale one is refused, and a busy machine is slow).
        await recordContractTicks(
          db,
          SYMBOLS.map((symbol) => ({ symbol, price: START[symbol] as string, time: Date.now() })),
        );
      }
      const symbol = SYMBOLS[i % SYMBOLS.length] as string;
      const start = new MoneyDecimal(START[symbol] as string);
      const side = i % 2 === 0 ? "long" : "short";
      const band = new MoneyDecimal(1 + (i % 5)).div(100);
      const up = start.times(new MoneyDecimal(1).plus(band)).toDecimalPlaces(2).toFixed();
      const down = start.times(new MoneyDecimal(1).minus(band)).toDecimalPlaces(2).toFixed();
      await openContractPosition({ db }, user, {
        symbol,
        side,
        order_type: "market",
        lots: symbol === "BTCUSDT" ? "0.01" : symbol === "ETCUSDT" ? "10" : "1",
        // Ethereum Classic offers 20x at most.
        leverage: Math.min([5, 10, 20, 50][i % 4] as number, symbol === "ETCUSDT" ? 20 : 50),
        take_profit: i % 3 === 0 ? (side === "long" ? up : down) : undefined,
        stop_loss: i % 3 === 1 ? (side === "long" ? down : up) : undefined,
      });
    }
    const positions = (
      await pool.query(
        `select id, symbol, status, side, lots::text, contract_size::text, margin::text, maintenance_rate::text,
           entry_price::text, limit_price::text, take_profit::text, stop_loss::text
         from contract_positions order by id`,
      )
    ).rows.map(
      (r) =>
        ({
          id: Number(r.id),
          symbol: r.symbol,
          status: r.status,
          side: r.side,
          lots: r.lots,
          contractSize: r.contract_size,
          margin: r.margin,
          maintenanceRate: r.maintenance_rate,
          entryPrice: r.entry_price,
          limitPrice: r.limit_price,
          takeProfit: r.take_profit,
          stopLoss: r.stop_loss,
        }) as ContractPositionRow,
    );

    const a = startWorker("A", { CONTRACT_RISK_MAX_SHARDS: "1" });
    // On a machine busy with other tests a worker's start has taken over 30 s.
    await until(() => started(a.lines).length === 1, "A's engine started");
    const b = startWorker("B");
    await until(() => started(b.lines).length === 1, "B's engine started");
    const [shardA] = started(a.lines) as [number];
    const [shardB] = started(b.lines) as [number];
    expect(new Set([shardA, shardB])).toEqual(new Set([0, 1]));
    const path = pricePath(240, 7);
    const first = await recordContractTicks(
      db,
      path.slice(0, 120).map((t) => ({ ...t, time: Date.now() })),
    );
    // A has read into the stream: it is killed, and the stream goes on without it.
    await until(async () => (await cursor(shardA)) >= (first[0]?.id ?? 0), "engine A reading");
    a.child.kill("SIGKILL");
    const second = await recordContractTicks(
      db,
      path.slice(120).map((t) => ({ ...t, time: Date.now() })),
    );
    const lastId = second.at(-1)?.id ?? 0;
    await until(() => started(b.lines).includes(shardA), "B took A's shard over");
    await until(
      async () => (await cursor(0)) === lastId && (await cursor(1)) === lastId,
      "both shards read to the end",
      60_000,
    );

    // The reference: each position's first crossing tick, from the same recorded ticks.
    const ticks = [...first, ...second];
    const expected = new Map<number, { tickId: number; reason: string }>();
    for (const p of positions) {
      for (const t of ticks) {
        const kind = t.symbol === p.symbol ? triggerAt(p, t.price) : null;
        if (kind) {
          expected.set(p.id, { tickId: t.id, reason: kind });
          break;
        }
      }
    }
    const closes = (
      await pool.query<{ position_id: number; tick_id: number; reason: string }>(
        "select position_id, tick_id, reason from contract_closes order by id",
      )
    ).rows;
    const actual = new Map(
      closes.map((c) => [Number(c.position_id), { tickId: Number(c.tick_id), reason: c.reason }]),
    );
    expect(closes.length).toBe(actual.size);
    expect(expected.size).toBeGreaterThan(10);
    // Triggers in both shards' instruments, those of the killed worker's shard included.
    for (const shard of [0, 1]) {
      const closedInShard = positions.filter((p) => actual.has(p.id) && shardOf(p.symbol, SHARDS) === shard);
      expect(closedInShard.length, `shard ${shard}`).toBeGreaterThan(2);
    }
    expect(Object.fromEntries(actual)).toEqual(Object.fromEntries(expected));
    expect((await reconcileLedger(db)).ok).toBe(true);
    b.child.kill("SIGTERM");
  }, 300_000);
});
