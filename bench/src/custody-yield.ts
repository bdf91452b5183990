import os from "node:os";
import { createDb } from "@northstar/domain/db";
import { createProduct, runDailyYield, settleOrder } from "@northstar/domain/earn";
import { type EntryInput, postEntries, reconcileLedger } from "@northstar/domain/ledger";
import { MoneyDecimal } from "@northstar/shared/money";
import { freshPlatformDatabase } from "./database.ts";
import { sized } from "./smoke.ts";
import { type BenchResult, percentile } from "./types.ts";

/*
 * The custody-yield daily job over ORDERS orders of a fixed-rate product (held by USERS users): each
 * simulated day the job pays every order its day's yield (a ledger entry per order and day, a yield-day
 * row, the order's paid days) in batches of 2,000 orders per transaction. Reported per day: orders
 * credited per wall second and per CPU-second of this process (PostgreSQL's work is on the same two
 * cores, not in that CPU time). The peer, one transaction per order (`settleOrder`), pays PEER orders
 * of the same day first, alternating with the job day after day. Checked each day: every order paid
 * once, the day's yield equal to Σ principal × rate computed by the database; at the end the ledger
 * reconciles.
 */
const DATABASE_URL =
  process.env.BENCH_EARN_DATABASE_URL ??
  `postgresql://postgres@127.0.0.1:5432/northstar_bench_earn${sized("", "_smoke")}`;
const ORDERS = Number(process.env.BENCH_EARN_ORDERS ?? sized(1_000_000, 3000));
const USERS = Number(process.env.BENCH_EARN_USERS ?? sized(10_000, 100));
const PEER = Number(process.env.BENCH_EARN_PEER ?? sized(5000, 200));
const DAYS = Number(process.env.BENCH_EARN_DAYS ?? sized(3, 1));
const RATE = "0.0005";
const START_DAY = "2026-03-01";

const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};
const round = (v: number) => Math.round(v);
const stats = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    median: round(percentile(sorted, 50)),
    min: round(sorted[0] ?? Number.NaN),
    max: round(sorted.at(-1) ?? Number.NaN),
  };
};

export async function run(): Promise<BenchResult> {
  await freshPlatformDatabase(DATABASE_URL);
  const { db, pool, close } = createDb(DATABASE_URL, { max: 4 });
  const loadBefore = os.loadavg();
  try {
    const product = await createProduct(
      db,
      {
        family: "etf",
        name: "Bench custody",
        currency: "USDT",
        cycle_days: 30,
        rate_min: RATE,
        rate_max: RATE,
        min_amount: "100",
        max_amount: "100000",
        user_limit: "100000000",
        user_count: 1_000_000,
        capacity: "100000000000",
        risk_level: "conservative",
        redemption_rule: "remaining_days",
      },
      "bench",
    );
    // Users and orders written in bulk by the database (as a million purchases would leave them).
    await pool.query(
      `insert into users (uid, password_hash, nationality, invite_code, nickname)
       select (40000000 + g)::text, 'x', 'GB', 'Y' || g, 'Holder' || g from generate_series(1, $1::int) g`,
      [USERS],
    );
    // The holders' ids are consecutive (one insert): order g belongs to holder g mod USERS, computed
    // rather than joined, so a million orders insert in one pass.
    const first = await pool.query<{ id: string }>(
      "select min(id)::text as id from users where invite_code like 'Y%'",
    );
    await pool.query(
      `insert into earn_orders (user_id, product_id, currency, amount, cycle_days, daily_rate, start_day)
       select $5::bigint + (g % $6::int), $2::bigint, 'USDT', 100 + (g % 90000) / 100.0, 30, $3::numeric, $4::date
       from generate_series(1, $1::int) g
       order by g`,
      [ORDERS, product.id, RATE, START_DAY, first.rows[0]?.id, USERS],
    );
    // The principal in custody: one entry per holder for all of its orders.
    const principals = await pool.query<{ user_id: string; total: string }>(
      "select user_id, sum(amount)::text as total from earn_orders group by user_id order by user_id",
    );
    const custody: EntryInput[] = principals.rows.map((r) => ({
      idempotencyKey: `bench.custody:${r.user_id}`,
      kind: "earn.buy",
      reference: { type: "bench", id: r.user_id },
      postings: [
        {
          account: { system: "deposit_clearing:bench", book: "real", currency: "USDT" },
          amount: `-${r.total}`,
        },
        { account: { system: "earn_custody", book: "real", currency: "USDT" }, amount: r.total },
      ],
    }));
    for (let i = 0; i < custody.length; i += 2000) {
      await postEntries(db, custody.slice(i, i + 2000));
    }
    // A table that grew by a million purchases has planner statistics (autovacuum analyzes it as it
    // grows); one filled by a single insert a moment ago has none until autovacuum's next round.
    await pool.query("analyze earn_orders");
    const peerIds = (
      await pool.query<{ id: string }>("select id from earn_orders order by id limit $1", [PEER])
    ).rows.map((r) => Number(r.id));

    const job = { perSec: [] as number[], perCpuSec: [] as number[], seconds: [] as number[] };
    const peer = { perSec: [] as number[], perCpuSec: [] as number[] };
    for (let day = 1; day <= DAYS; day++) {
      const now = new Date(Date.parse(`${START_DAY}T00:30:00Z`) + day * 86_400_000);
      // The peer: one transaction per order, for the first PEER orders of the day.
      let c = cpu();
      let t = performance.now();
      let next = 0;
      await Promise.all(
        Array.from({ length: 4 }, async () => {
          while (next < peerIds.length) {
            await settleOrder(db, peerIds[next++] as number, now);
          }
        }),
      );
      peer.perSec.push(peerIds.length / ((performance.now() - t) / 1000));
      peer.perCpuSec.push(peerIds.length / (cpu() - c));
      // The job: everything else due that day.
      c = cpu();
      t = performance.now();
      const result = await runDailyYield(db, now);
      const seconds = (performance.now() - t) / 1000;
      job.seconds.push(seconds);
      job.perSec.push(result.orders / seconds);
      job.perCpuSec.push(result.orders / (cpu() - c));
      const check = await pool.query<{ paid: number; total: string; expected: string }>(
        `select (select count(*)::int from earn_orders where paid_days = $1) as paid,
           (select sum(amount)::text from earn_yield_days where day = ($2::date + $1::int)) as total,
           (select sum(amount * $3::numeric)::text from earn_orders) as expected`,
        [day, START_DAY, RATE],
      );
      const row = check.rows[0];
      if (
        row?.paid !== ORDERS ||
        !new MoneyDecimal(row.total).equals(row.expected) ||
        result.orders !== ORDERS - peerIds.length
      ) {
        throw new Error(`day ${day}: ${JSON.stringify({ ...row, jobOrders: result.orders })}`);
      }
      console.log(
        `day ${day}: ${result.orders} orders in ${seconds.toFixed(1)} s; day's yield ${row.total} USDT`,
      );
    }
    const reconciled = (await reconcileLedger(db)).ok;
    if (!reconciled) {
      throw new Error("the ledger does not reconcile");
    }
    const perSec = stats(job.perSec);
    const peerPerSec = stats(peer.perSec);
    const millionSeconds = Math.round((1_000_000 / perSec.median) * 10) / 10;
    const figures = {
      orders: ORDERS,
      users: USERS,
      days: DAYS,
      loadAverage: {
        before: loadBefore.map((v) => Number(v.toFixed(2))),
        after: os.loadavg().map((v) => Number(v.toFixed(2))),
      },
      ordersPerSec: perSec,
      ordersPerCpuSecOfThisProcess: stats(job.perCpuSec),
      secondsPerDay: stats(job.seconds),
      secondsForOneMillion: millionSeconds,
      perOrderPeer: { orders: PEER, perSec: peerPerSec, perCpuSecOfThisProcess: stats(peer.perCpuSec) },
      ratio: Math.round((perSec.median / peerPerSec.median) * 10) / 10,
      reconciled,
    };
    return {
      figures,
      summary: [
        `load average before ${figures.loadAverage.before.join(" ")}, after ${figures.loadAverage.after.join(" ")}`,
        `${ORDERS} orders, ${DAYS} days: ${perSec.median} orders/s (${perSec.min}–${perSec.max}), ${stats(job.seconds).median} s a day; a million orders in ${millionSeconds} s`,
        `peer, one transaction per order: ${peerPerSec.median} orders/s (${peerPerSec.min}–${peerPerSec.max}); ratio ${figures.ratio}×`,
        `ledger reconciles: ${reconciled}`,
      ],
    };
  } finally {
    await close();
  }
}
