import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import { createDb, type Db } from "@northstar/domain/db";
import { getUserBalances } from "@northstar/domain/ledger";
import { seedDatabase } from "@northstar/domain/seed";
import { spotOrders, spotTrades } from "@northstar/domain/spot";
import type { Redis } from "ioredis";
import type { Workload, WorkloadMarket } from "../../../../packages/domain/src/spot/workload.ts";
import {
  compiledEntry,
  createTestDatabase,
  testRedisUrl,
} from "../../../../packages/domain/src/test-support/index.ts";

/*
 * Helpers of the spot failover tests: a seeded database and Redis prefix per run, worker processes
 * started as `pnpm start` starts them, and the outcome of a run keyed by position in the workload.
 */
const ROOT = fileURLToPath(new URL("../../../..", import.meta.url));

/** Four markets, each in a different shard under two and under three shards, and funds for them. */
export const SHARDED_MARKETS: WorkloadMarket[] = [
  { symbol: "BTCUSDT", mid: 60000, tick: "0.01", lot: "0.00001" },
  { symbol: "ETHUSDT", mid: 3000, tick: "0.01", lot: "0.0001" },
  { symbol: "BCHUSDT", mid: 520.5, tick: "0.1", lot: "0.001" },
  { symbol: "ETCUSDT", mid: 13.05, tick: "0.001", lot: "0.01" },
];
export const SHARDED_FUNDS = { USDT: "1000000", BTC: "20", ETH: "300", BCH: "500", ETC: "5000" };

/** The spot-matcher shards a worker's output says it took, in the order it took them. */
export const takenShards = (lines: string[], prefix: string) =>
  lines.flatMap((l) => {
    const match = new RegExp(`took lease ${prefix}:lease:spot-matcher:(\\d+)`).exec(l);
    return match ? [Number(match[1])] : [];
  });

export interface Run {
  db: Db;
  url: string;
  prefix: string;
  close(): Promise<void>;
}

export async function newRun(redis: Redis, name: string): Promise<Run> {
  const database = await createTestDatabase();
  const conn = createDb(database.url, { max: 10 });
  await seedDatabase(conn.db);
  const run: Run = {
    db: conn.db,
    url: database.url,
    prefix: `test:${name}:${randomBytes(3).toString("hex")}`,
    async close() {
      const keys = await redis.keys(`${run.prefix}*`);
      if (keys.length) {
        await redis.del(...keys);
      }
      await conn.close();
      await database.drop();
    },
  };
  return run;
}

/** A worker process running only the spot matcher role (leases of 1.5 s), its output kept in `lines`. */
export function startWorker(
  run: Run,
  name: string,
  env: Record<string, string> = {},
): { child: ChildProcess; lines: string[] } {
  const lines: string[] = [];
  const child = spawn(process.execPath, compiledEntry("apps/worker/src/main.ts"), {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_URL: run.url,
      REDIS_URL: testRedisUrl(),
      REDIS_PREFIX: run.prefix,
      WORKER_ROLES: "spot-matcher",
      LEASE_TTL_MS: "1500",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
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

/** Everything that must be equal between two runs of one workload, keyed by position (not by database id). */
export async function outcome(run: Run, workload: Workload) {
  const position = new Map(workload.orders.map((o, i) => [o.id, i]));
  const orders = await run.db.select().from(spotOrders).orderBy(spotOrders.id);
  const trades = await run.db.select().from(spotTrades).orderBy(spotTrades.id);
  const balances = [];
  for (const trader of workload.traders) {
    balances.push(await getUserBalances(run.db, trader.id, "real"));
  }
  const marketMaker = await run.db.execute<{ currency: string; balance: string }>(
    "select currency, balance::text from ledger_accounts where system_code = 'market_maker' order by book, currency",
  );
  const quotes = await run.db.execute<{ side: string; price: string; quantity: string }>(
    "select symbol, book, side, price::text, quantity::text from spot_quotes order by symbol, book, queue_seq",
  );
  return {
    orders: orders.map((o) => ({
      at: position.get(o.id),
      status: o.status,
      filledQty: o.filledQty,
      filledQuote: o.filledQuote,
      fee: o.fee,
      held: o.held,
      cancelReason: o.cancelReason,
    })),
    // Fills of one market keep their order; between markets, batches may interleave differently.
    trades: trades
      .map((t) => ({
        maker: position.get(t.makerOrderId ?? 0),
        taker: position.get(t.takerOrderId ?? 0),
        price: t.price,
        quantity: t.quantity,
        makerFee: t.makerFee,
        takerFee: t.takerFee,
        symbol: t.symbol,
      }))
      .sort((a, b) => a.symbol.localeCompare(b.symbol)),
    balances,
    marketMaker: marketMaker.rows,
    quotesLeft: quotes.rows,
    refused: Object.keys(workload.refused).filter((code) => code !== "ORDER_NOT_OPEN"),
  };
}
