import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import {
  type ContractPositionRow,
  openContractPosition,
  recordContractTicks,
  triggerAt,
} from "@northstar/domain/contracts";
import type { Db } from "@northstar/domain/db";
import { reconcileLedger } from "@northstar/domain/ledger";
import { MoneyDecimal } from "@northstar/shared/money";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newContractUser } from "../../../packages/domain/src/contracts/testing.ts";
import { compiledEntry, testRedisUrl, until } from "../../../packages/domain/src/test-support/index.ts";
import { useWorkerTestBed, type WorkerTestBed } from "./test/queue-test-bed.ts";

/*
 * The risk engine runs in a worker process holding the `contract-risk` lease; a second worker waits
 * as a standby. The holder is killed (SIGKILL) while the recorded price stream goes on; the standby
 * takes over from the stored cursor. Every TP, SL and liquidation happens exactly once, at the first
 * tick that crosses it, as a reference computed from the same ticks says.
 */
const ROOT = fileURLToPath(new URL("../../..", import.meta.url));
const SYMBOLS = ["BTCUSDT", "ETHUSDT", "SOLUSDT", "BNBUSDT"];
const START: Record<string, string> = { BTCUSDT: "90000", ETHUSDT: "3000", SOLUSDT: "140", BNBUSDT: "900" };

const bed = useWorkerTestBed("contract-risk");
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

function startWorker(name: string): { child: ChildProcess; lines: string[] } {
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

const cursor = async () =>
  Number(
    (await pool.query<{ tick_id: number }>("select tick_id from contract_engine_cursor where name = 'main'"))
      .rows[0]?.tick_id ?? -1,
  );

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

describe("the contract risk engine under a lease", () => {
  it("is killed mid-stream; the standby takes over with no trigger missed or doubled", async () => {
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
        lots: symbol === "BTCUSDT" ? "0.01" : "1",
        leverage: [5, 10, 20, 50][i % 4] as number,
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

    const a = startWorker("A");
    await until(() => a.lines.some((l) => l.includes("contract risk engine started")), "engine A started");
    const b = startWorker("B");
    const path = pricePath(240, 7);
    const first = await recordContractTicks(
      db,
      path.slice(0, 120).map((t) => ({ ...t, time: Date.now() })),
    );
    // A has read into the stream: it is killed, and the stream goes on without it.
    await until(async () => (await cursor()) >= (first[0]?.id ?? 0), "engine A reading");
    a.child.kill("SIGKILL");
    const second = await recordContractTicks(
      db,
      path.slice(120).map((t) => ({ ...t, time: Date.now() })),
    );
    const lastId = second.at(-1)?.id ?? 0;
    await until(() => b.lines.some((l) => l.includes("contract risk engine started")), "standby B took over");
    await until(async () => (await cursor()) === lastId, "standby B read to the end");

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
    expect(Object.fromEntries(actual)).toEqual(Object.fromEntries(expected));
    expect((await reconcileLedger(db)).ok).toBe(true);
    b.child.kill("SIGTERM");
  }, 120_000);
});
