import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createDb } from "@northstar/domain/db";
import { mulberry32 } from "@northstar/shared/random";
import pg from "pg";
import { createTrader } from "../../packages/domain/src/spot/testing.ts";
import { freshPlatformDatabase } from "./database.ts";
import { seedHistory } from "./history.ts";
import { closedLoop } from "./order-load.ts";
import { processCpuSeconds } from "./process-cpu.ts";
import { sized } from "./smoke.ts";
import { type BenchResult, spread } from "./types.ts";

/*
 * The floor under the spot order path's CPU on this machine: what an order costs in the parts that
 * carry none of our logic, to set beside `pnpm bench spot-api`'s CPU per order.
 *
 * - HTTP: a bare node:http server (http-floor-server.mjs: read the body, parse it, answer an order
 *   of spot.place's size) under the spot-api benchmark's own load generator, the same requests with
 *   the same concurrency. Reported: the server's CPU and the load generator's per request.
 * - PostgreSQL: the rows one order writes on average, by table, as the last spot-api run measured
 *   them (bench/results/spot-api.json), written into the same tables (same indexes, constraints and
 *   triggers) of a database migrated and filled with the same history, ORDERS_PER_TRANSACTION orders
 *   per transaction in one plain statement per table (prepared once, parameters as arrays, no JSON,
 *   no lock waited on, no round trip per order) on one connection. Reported: that backend's CPU per
 *   order.
 *
 * Rounds alternate HTTP and PostgreSQL; figures are the median and range of the rounds.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const DATABASE_URL = `postgresql://postgres@127.0.0.1:5432/northstar_bench_floor${sized("", "_smoke")}`;
const PORT = sized(3921, 3931);
const TRADERS = sized(200, 10);
const HISTORY_USERS = sized(20_000, 100);
const CONCURRENCY = sized(64, 8);
const HTTP_SECONDS = sized(10, 1);
const ROUNDS = sized(3, 1);
const ORDERS_PER_TRANSACTION = 32;
const PG_ORDERS = sized(16_000, 640);

/** Rows one order writes, by kind: the spot-api run's table counters, per order. */
interface RowsPerOrder {
  ordersInserted: number;
  ordersUpdated: number;
  entries: number;
  postings: number;
  accountsUpdated: number;
  countsUpdated: number;
  trades: number;
  messages: number;
}

async function measuredRows(): Promise<{ rows: RowsPerOrder; date: string; cpuMsPerOrder: unknown }> {
  const file = path.join(root, "bench", "results", "spot-api.json");
  const result = JSON.parse(await readFile(file, "utf8")) as {
    date: string;
    closedLoop: {
      cpuMsPerOrder: unknown;
      sqlPerOrder: { byTable: Record<string, { inserted: number; updated: number }> };
    };
  };
  const t = result.closedLoop.sqlPerOrder.byTable;
  const of = (table: string) => t[table] ?? { inserted: 0, updated: 0 };
  return {
    date: result.date,
    cpuMsPerOrder: result.closedLoop.cpuMsPerOrder,
    rows: {
      ordersInserted: of("spot_orders").inserted,
      ordersUpdated: of("spot_orders").updated,
      entries: of("journal_entries").inserted,
      postings: of("postings").inserted,
      accountsUpdated: of("ledger_accounts").updated,
      countsUpdated: of("spot_open_order_counts").updated,
      trades: of("spot_trades").inserted,
      messages: of("user_messages").inserted,
    },
  };
}

/** How many of a kind transaction `k` writes, so that the running total follows the rate exactly. */
const share = (perOrder: number, k: number) =>
  Math.floor(perOrder * ORDERS_PER_TRANSACTION * (k + 1)) - Math.floor(perOrder * ORDERS_PER_TRANSACTION * k);

/** The traders' user ids and ledger account ids, which the rows the transactions write name. */
interface Fixture {
  accounts: number[];
  users: number[];
}

async function fixture(): Promise<Fixture> {
  await freshPlatformDatabase(DATABASE_URL);
  const { db, close } = createDb(DATABASE_URL, { max: 2 });
  try {
    await seedHistory(db, HISTORY_USERS);
    const users: number[] = [];
    for (let i = 0; i < TRADERS; i++) {
      users.push((await createTrader(db, { USDT: "100000000", BTC: "1000", ETH: "20000" })).id);
    }
    const list = `{${users.join(",")}}`;
    // Each trader's held buckets exist, as they do once a trader has placed an order.
    await db.execute(`
      insert into ledger_accounts (user_id, book, wallet, currency, bucket)
      select u, 'real', 'exchange', c, 'held' from unnest('${list}'::bigint[]) u, unnest('{USDT,BTC,ETH}'::text[]) c
      on conflict do nothing`);
    await db.execute(`
      insert into spot_open_order_counts (user_id, symbol, open)
      select u, 'BTCUSDT', 0 from unnest('${list}'::bigint[]) u on conflict do nothing`);
    const accounts = await db.execute<{ id: number }>(
      `select id from ledger_accounts where user_id = any('${list}'::bigint[]) order by id`,
    );
    await db.execute("analyze");
    return { accounts: accounts.rows.map((r) => Number(r.id)), users };
  } finally {
    await close();
  }
}

/**
 * Writes `orders` orders' rows at the measured rates, ORDERS_PER_TRANSACTION per transaction, and
 * returns the backend's CPU milliseconds per order.
 */
async function postgresFloor(fx: Fixture, rates: RowsPerOrder, orders: number, round: number) {
  const client = new pg.Client(DATABASE_URL);
  await client.connect();
  try {
    const backend = Number((await client.query("select pg_backend_pid() as pid")).rows[0].pid);
    const pending: number[] = [];
    const open: number[] = [];
    let next = 0;
    const pick = <T>(from: T[], n: number): T[] =>
      Array.from({ length: n }, () => from[next++ % from.length] as T);
    const distinct = (ids: number[]) => `{${[...new Set(ids)].sort((a, b) => a - b).join(",")}}`;
    const transactions = Math.ceil(orders / ORDERS_PER_TRANSACTION);
    const cpuBefore = processCpuSeconds(backend);
    for (let k = 0; k < transactions; k++) {
      const n = {
        orders: share(rates.ordersInserted, k),
        updates: share(rates.ordersUpdated, k),
        entries: share(rates.entries, k),
        postings: share(rates.postings, k),
        accounts: share(rates.accountsUpdated, k),
        counts: share(rates.countsUpdated, k),
        trades: share(rates.trades, k),
        messages: share(rates.messages, k),
      };
      const users = pick(fx.users, n.orders);
      await client.query("begin");
      const inserted = await client.query<{ id: string }>({
        name: "floor-orders",
        text: `insert into spot_orders (user_id, book, symbol, base, quote, side, type, time_in_force, price,
           quantity, held, hold_currency, fee_currency, client_key)
         select u, 'real', 'BTCUSDT', 'BTC', 'USDT', 'buy', 'limit', 'gtc', 59871.42, 0.00123, 73.64184660,
           'USDT', 'BTC', 'floor' || $2 || ':' || o
         from unnest($1::bigint[]) with ordinality as v(u, o) returning id`,
        values: [`{${users.join(",")}}`, `${round}:${k}`],
      });
      pending.push(...inserted.rows.map((r) => Number(r.id)));
      // Each order changes state through the open-orders index twice (pending → open → filled), as
      // the matcher's compare-and-set does.
      const opened = pending.splice(0, Math.ceil(n.updates / 2));
      const filled = open.splice(0, n.updates - opened.length);
      await client.query({
        name: "floor-order-states",
        text: `update spot_orders set status = case status when 'pending' then 'open' else 'filled' end,
           filled_qty = case status when 'pending' then 0 else quantity end, updated_at = now()
         where id = any($1::bigint[])`,
        values: [`{${[...opened, ...filled].join(",")}}`],
      });
      open.push(...opened);
      const accounts = pick(fx.accounts, n.postings);
      await client.query({
        name: "floor-ledger",
        text: `with e as materialized (
           insert into journal_entries (idempotency_key, book, kind, reference_type, reference_id)
           select 'floor:' || $1 || ':' || g, 'real', 'spot.fill', 'spot_trade', g::text
           from generate_series(1, $2::int) g returning id),
         ids as (select array_agg(id order by id) as a from e)
         insert into postings (entry_id, account_id, currency, amount, balance_after)
         select ids.a[1 + (p.o - 1) % cardinality(ids.a)], p.account, 'USDT', 1.25, 1000.5
         from ids, unnest($3::bigint[]) with ordinality as p(account, o)`,
        values: [`${round}:${k}`, n.entries, `{${accounts.join(",")}}`],
      });
      await client.query({
        name: "floor-accounts",
        text: "update ledger_accounts set balance = balance + 1 where id = any($1::bigint[])",
        values: [distinct(pick(fx.accounts, n.accounts))],
      });
      await client.query({
        name: "floor-counts",
        text: "update spot_open_order_counts set open = open + 1 where user_id = any($1::bigint[]) and symbol = 'BTCUSDT'",
        values: [distinct(pick(fx.users, n.counts))],
      });
      await client.query({
        name: "floor-trades",
        text: `insert into spot_trades (symbol, book, price, quantity, quote_qty, taker_side, maker_fee, taker_fee,
           maker_user_id, taker_user_id)
         select 'BTCUSDT', 'real', 59871.42, 0.00123, 73.64184660, 'buy', 0.07364185, 0.00000123, u, u
         from unnest($1::bigint[]) u`,
        values: [`{${pick(fx.users, n.trades).join(",")}}`],
      });
      await client.query({
        name: "floor-messages",
        text: `insert into user_messages (user_id, kind, params, event_key)
         select u, 'spot.filled', '{"symbol":"BTCUSDT","quantity":"0.00123"}', 'floor:' || $2 || ':' || o
         from unnest($1::bigint[]) with ordinality as v(u, o)`,
        values: [`{${pick(fx.users, n.messages).join(",")}}`, `${round}:${k}`],
      });
      await client.query("commit");
    }
    const cpuMs = (processCpuSeconds(backend) - cpuBefore) * 1000;
    const written = transactions * ORDERS_PER_TRANSACTION;
    await checkWritten(client, round, rates, transactions);
    return Number((cpuMs / written).toFixed(3));
  } finally {
    await client.end();
  }
}

/** The round wrote the rows its rates asked for, no fewer (a statement that wrote nothing is no floor). */
async function checkWritten(client: pg.Client, round: number, rates: RowsPerOrder, transactions: number) {
  const total = (perOrder: number) => Math.floor(perOrder * ORDERS_PER_TRANSACTION * transactions);
  const found = (
    await client.query<{ orders: string; entries: string; postings: string; messages: string }>(
      `select (select count(*) from spot_orders where client_key like $1) as orders,
         (select count(*) from journal_entries where idempotency_key like $2) as entries,
         (select count(*) from postings p join journal_entries e on e.id = p.entry_id
           where e.idempotency_key like $2) as postings,
         (select count(*) from user_messages where event_key like $2) as messages`,
      [`floor${round}:%`, `floor:${round}:%`],
    )
  ).rows[0];
  const expected = {
    orders: total(rates.ordersInserted),
    entries: total(rates.entries),
    postings: total(rates.postings),
    messages: total(rates.messages),
  };
  const actual = {
    orders: Number(found?.orders),
    entries: Number(found?.entries),
    postings: Number(found?.postings),
    messages: Number(found?.messages),
  };
  if (JSON.stringify(actual) !== JSON.stringify(expected)) {
    throw new Error(`floor round ${round} wrote ${JSON.stringify(actual)}, not ${JSON.stringify(expected)}`);
  }
}

async function startHttpFloor(): Promise<ChildProcess> {
  const server = spawn(
    process.execPath,
    ["--max-semi-space-size=32", path.join(root, "bench", "src", "http-floor-server.mjs"), String(PORT)],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  await once(server.stdout as NodeJS.ReadableStream, "data");
  return server;
}

async function httpFloor(tokens: string[], random: () => number) {
  const server = await startHttpFloor();
  try {
    await closedLoop(PORT, CONCURRENCY, tokens, sized(2, 0.5), random); // warm-up
    const before = processCpuSeconds(server.pid ?? 0);
    const self = process.cpuUsage();
    const run = await closedLoop(PORT, CONCURRENCY, tokens, HTTP_SECONDS, random);
    const used = process.cpuUsage(self);
    if (run.failed > 0 || run.latencies.length === 0) {
      throw new Error(
        `the bare HTTP server answered ${run.latencies.length} requests and failed ${run.failed}`,
      );
    }
    const n = run.latencies.length;
    return {
      requestsPerSec: Math.round(run.latencies.length / run.seconds),
      failed: run.failed,
      server: Number((((processCpuSeconds(server.pid ?? 0) - before) * 1000) / n).toFixed(3)),
      loadGenerator: Number(((used.user + used.system) / 1000 / n).toFixed(3)),
    };
  } finally {
    server.kill();
    await once(server, "exit");
  }
}

export async function run(): Promise<BenchResult> {
  const measured = await measuredRows();
  const fx = await fixture();
  const random = mulberry32(7);
  const tokens = Array.from({ length: TRADERS }, (_, i) => `floor-token-${i}`.padEnd(43, "x"));
  const runs: { round: number; http: Awaited<ReturnType<typeof httpFloor>>; postgresMsPerOrder: number }[] =
    [];
  for (let round = 0; round < ROUNDS; round++) {
    // Alternate which floor goes first, so a drift in the machine's speed touches both alike.
    let http: Awaited<ReturnType<typeof httpFloor>>;
    let postgres: number;
    if (round % 2 === 0) {
      http = await httpFloor(tokens, random);
      postgres = await postgresFloor(fx, measured.rows, PG_ORDERS, round);
    } else {
      postgres = await postgresFloor(fx, measured.rows, PG_ORDERS, round);
      http = await httpFloor(tokens, random);
    }
    runs.push({ round, http, postgresMsPerOrder: postgres });
  }
  const server = spread(runs.map((r) => r.http.server));
  const loadGenerator = spread(runs.map((r) => r.http.loadGenerator));
  const postgres = spread(runs.map((r) => r.postgresMsPerOrder));
  const sum = spread(
    runs.map((r) => Number((r.http.server + r.http.loadGenerator + r.postgresMsPerOrder).toFixed(3))),
  );
  // The load generator pays more per request against the bare server than against the API: answers
  // come one at a time there, not a group commit's worth per wake-up. Hence the sum without it too.
  const serverAndPostgres = spread(
    runs.map((r) => Number((r.http.server + r.postgresMsPerOrder).toFixed(3))),
  );
  return {
    summary: [
      `HTTP floor, ${CONCURRENCY} in flight: server ${server.median} ms (${server.min}–${server.max}), load generator ${loadGenerator.median} ms (${loadGenerator.min}–${loadGenerator.max}) of CPU per request; ${runs.map((r) => r.http.requestsPerSec).join(", ")} requests/s`,
      `PostgreSQL floor, the rows of one order (${JSON.stringify(measured.rows)}), ${ORDERS_PER_TRANSACTION} orders per transaction: ${postgres.median} ms (${postgres.min}–${postgres.max}) of backend CPU per order`,
      `floor sum: ${sum.median} ms of CPU per order (${sum.min}–${sum.max}), ${serverAndPostgres.median} ms (${serverAndPostgres.min}–${serverAndPostgres.max}) without the load generator; the spot-api run of ${measured.date} measured ${JSON.stringify(measured.cpuMsPerOrder)}`,
    ],
    figures: {
      method:
        "HTTP: bare node:http server answering spot.place-sized JSON under the spot-api load generator; PostgreSQL: the spot-api run's rows per order by table, into the same tables of a migrated database with the same history, 32 orders per transaction, one prepared plain statement per table, one connection; rounds alternate the two",
      rowsPerOrder: measured.rows,
      cpuMsPerOrder: { httpServer: server, loadGenerator, postgres, sum, serverAndPostgres },
      spotApi: { date: measured.date, cpuMsPerOrder: measured.cpuMsPerOrder },
      runs,
    },
  };
}
