import { randomBytes } from "node:crypto";
import type { Db } from "@northstar/domain/db";
import { type User, users } from "@northstar/domain/identity";
import {
  type EntryInput,
  getUserBalances,
  postEntries,
  postEntry,
  reconcileLedger,
} from "@northstar/domain/ledger";
import {
  buyOption,
  createSettlementScheduler,
  getOptionOrder,
  optionOrders,
  recordTicks,
} from "@northstar/domain/options";
import { JOBS, QUEUES } from "@northstar/shared/jobs";
import { MoneyDecimal } from "@northstar/shared/money";
import { Queue, QueueEvents } from "bullmq";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startOptionSettlement } from "./queues/option-settlement.ts";
import { useWorkerTestBed, type WorkerTestBed } from "./test/queue-test-bed.ts";

/**
 * The option-settlement worker against real PostgreSQL and Redis: a job delivered twice pays once,
 * and orders that expired while the worker was stopped are settled when it starts again, with the
 * first tick at or after their expiry. Time is a test clock the test moves; nothing sleeps.
 */
const bed = useWorkerTestBed("options");
const { redis: connection, prefix } = bed;
let db: Db;
let pool: WorkerTestBed["pool"];
let queue: Queue;
let events: QueueEvents;
const clock = { now: new Date(Date.UTC(2026, 0, 7, 12, 0, 0)) };
const now = () => clock.now;

beforeAll(async () => {
  ({ db, pool } = bed);
  queue = new Queue(QUEUES.optionSettlement, { connection, prefix });
  events = new QueueEvents(QUEUES.optionSettlement, { connection: connection.duplicate(), prefix });
  await events.waitUntilReady();
});
afterAll(async () => {
  await events?.close();
  await queue?.close();
});

async function newUser(funds: string): Promise<User> {
  const uid = String(10_000_000 + Math.floor(Math.random() * 89_999_999));
  const [user] = await db
    .insert(users)
    .values({
      uid,
      passwordHash: "x",
      nationality: "GB",
      inviteCode: `W${randomBytes(5).toString("hex")}`,
      nickname: `U${uid}`,
    })
    .returning();
  if (!user) {
    throw new Error("insert failed");
  }
  await postEntry(db, {
    idempotencyKey: `grant:${user.id}`,
    kind: "test.grant",
    reference: { type: "test", id: user.id },
    postings: [
      { account: { system: "deposit_clearing:test", book: "real", currency: "USDT" }, amount: `-${funds}` },
      { account: { userId: user.id, book: "real", wallet: "option", currency: "USDT" }, amount: funds },
    ],
  });
  return user;
}

const at = (ms: number) => new Date(clock.now.getTime() + ms);
const tick = (symbol: string, price: string, time: Date) =>
  recordTicks(db, [{ symbol, price, time: time.getTime() }]);
async function optionBalance(userId: number) {
  const row = (await getUserBalances(db, userId, "real")).find((b) => b.wallet === "option");
  return new MoneyDecimal(row?.available ?? 0).toFixed();
}
const settleEntries = async (orderId: number) =>
  (
    await pool.query<{ n: number }>(
      "select count(*)::int as n from journal_entries where idempotency_key = $1",
      [`option.settle:${orderId}`],
    )
  ).rows[0]?.n;

describe("the option-settlement worker", () => {
  it("pays once when the settlement job of an order is delivered twice", async () => {
    const worker = startOptionSettlement({ db, connection, prefix, now, sweepIntervalMs: 3_600_000 });
    await worker.started;
    try {
      const user = await newUser("1000");
      await tick("BTCUSDT", "90000", at(-100));
      const order = await buyOption({ db, now }, user, {
        symbol: "BTCUSDT",
        direction: "up",
        amount: "100",
        period_seconds: 30,
      });
      await tick("BTCUSDT", "90010", at(30_020));
      clock.now = at(31_000);
      const dueAt = new Date(order.expires_at).getTime();
      const jobs = await Promise.all(
        ["a", "b"].map((copy) =>
          queue.add(JOBS.settleOptionsDue, { dueAt }, { jobId: `twice-${order.id}-${copy}` }),
        ),
      );
      const results = await Promise.all(jobs.map((job) => job.waitUntilFinished(events, 30_000)));
      // Side by side, the second copy skips the row the first holds, then finds it settled.
      expect(results.sort()).toEqual([0, 1]);
      expect(await getOptionOrder(db, user.id, order.id)).toMatchObject({
        status: "won",
        settlement_price: "90010",
        payout: "180",
      });
      expect(await optionBalance(user.id)).toBe("1079");
      expect(await settleEntries(order.id)).toBe(1);
    } finally {
      await worker.close();
    }
  });

  it("voids and refunds once an order whose feed stops at its expiry, with its settlement job delivered twice", async () => {
    const worker = startOptionSettlement({ db, connection, prefix, now, sweepIntervalMs: 3_600_000 });
    await worker.started;
    try {
      const user = await newUser("1000");
      await tick("SOLUSDT", "150", at(-100));
      const order = await buyOption({ db, now }, user, {
        symbol: "SOLUSDT",
        direction: "up",
        amount: "100",
        period_seconds: 30,
      });
      // The feed's last tick comes before the expiry; nothing after it.
      await tick("SOLUSDT", "151", at(29_000));
      clock.now = at(30_000 + 11_000);
      const dueAt = new Date(order.expires_at).getTime();
      const jobs = await Promise.all(
        ["a", "b"].map((copy) =>
          queue.add(JOBS.settleOptionsDue, { dueAt }, { jobId: `void-${order.id}-${copy}` }),
        ),
      );
      const results = await Promise.all(jobs.map((job) => job.waitUntilFinished(events, 30_000)));
      expect(results.sort()).toEqual([0, 1]);
      expect(await getOptionOrder(db, user.id, order.id)).toMatchObject({
        status: "void",
        settlement_price: null,
        payout: "101",
        profit: "0",
      });
      expect(await optionBalance(user.id)).toBe("1000");
      expect(await settleEntries(order.id)).toBe(1);
      expect((await reconcileLedger(db)).ok).toBe(true);
    } finally {
      await worker.close();
    }
  });

  it("settles on start, with the first tick at or after expiry, the orders that expired while it was stopped", async () => {
    // No worker runs: orders are bought and their jobs scheduled; the feed's ticks keep being recorded.
    const scheduler = createSettlementScheduler(connection, prefix);
    const user = await newUser("1000");
    await tick("ETHUSDT", "3000", at(-100));
    await tick("XRPUSDT", "2.1", at(-100));
    const buy = (symbol: string, direction: "up" | "down") =>
      buyOption({ db, now, scheduler }, user, { symbol, direction, amount: "50", period_seconds: 30 });
    const up = await buy("ETHUSDT", "up");
    const down = await buy("XRPUSDT", "down");
    const expiry = at(30_000);
    await tick("ETHUSDT", "3100", at(29_999));
    await tick("ETHUSDT", "2999", at(30_000));
    await tick("ETHUSDT", "3200", at(45_000));
    await tick("XRPUSDT", "2.05", at(30_700));
    await tick("XRPUSDT", "2.5", at(50_000));
    // The worker comes back two minutes after the expiry.
    clock.now = at(150_000);
    const worker = startOptionSettlement({ db, connection, prefix, now, sweepIntervalMs: 3_600_000 });
    try {
      await worker.started;
      expect(await getOptionOrder(db, user.id, up.id)).toMatchObject({
        status: "lost",
        settlement_price: "2999",
        settlement_tick_time: expiry.toISOString(),
      });
      expect(await getOptionOrder(db, user.id, down.id)).toMatchObject({
        status: "won",
        settlement_price: "2.05",
        payout: "90",
      });
      // 1000 − 2 × 50.5 + 90
      expect(await optionBalance(user.id)).toBe("989");
      expect(await settleEntries(down.id)).toBe(1);
      expect(await settleEntries(up.id)).toBe(0);
      // The delayed jobs still arrive later: they change nothing.
      const job = await queue.add(
        JOBS.settleOptionsDue,
        { dueAt: expiry.getTime() },
        { jobId: `late-${down.id}` },
      );
      expect(await job.waitUntilFinished(events, 30_000)).toBe(0);
      expect(await optionBalance(user.id)).toBe("989");
      expect((await reconcileLedger(db)).ok).toBe(true);
    } finally {
      await worker.close();
      await scheduler.close();
    }
  });

  it("settles a burst of 10,000 orders expiring in the same second through their slot jobs, each paid once", async () => {
    const worker = startOptionSettlement({ db, connection, prefix, now, sweepIntervalMs: 3_600_000 });
    await worker.started;
    const scheduler = createSettlementScheduler(connection, prefix);
    try {
      const base = at(3_600_000);
      const buyers = await Promise.all(Array.from({ length: 200 }, () => newUser("100000")));
      // The orders are written in bulk, as 10,000 purchases would leave them: the stake and fee
      // moved to the house by the purchase's ledger entry, the purchase tick recorded.
      const [purchaseTick] = await recordTicks(db, [
        { symbol: "BTCUSDT", price: "100", time: base.getTime() },
      ]);
      const [ethTick] = await recordTicks(db, [{ symbol: "ETHUSDT", price: "50", time: base.getTime() }]);
      if (!purchaseTick || !ethTick) {
        throw new Error("no tick");
      }
      const expiry = at(3_600_000 + 60_000);
      const rows = Array.from({ length: 10_000 }, (_, i) => {
        const buyer = buyers[i % buyers.length] as User;
        const btc = i % 5 !== 0;
        const amount = `${1 + (i % 97)}.${String(i % 100).padStart(2, "0")}`;
        return {
          userId: buyer.id,
          book: "real" as const,
          symbol: btc ? "BTCUSDT" : "ETHUSDT",
          direction: (i % 3 === 0 ? "down" : "up") as "up" | "down",
          periodSeconds: 60,
          amount,
          fee: new MoneyDecimal(amount).times("0.01").toFixed(),
          feeRate: "0.01",
          payoutRate: "0.8",
          tieRule: "refund" as const,
          purchaseTickId: (btc ? purchaseTick : ethTick).id,
          purchasePrice: btc ? "100" : "50",
          purchaseTickTime: base,
          purchasedAt: base,
          // Spread over one second.
          expiresAt: new Date(expiry.getTime() + (i % 1000)),
        };
      });
      const orders = [];
      for (let i = 0; i < rows.length; i += 2000) {
        orders.push(
          ...(await db
            .insert(optionOrders)
            .values(rows.slice(i, i + 2000))
            .returning()),
        );
      }
      const purchases: EntryInput[] = orders.map((o) => {
        const cost = new MoneyDecimal(o.amount).plus(o.fee).toFixed();
        return {
          idempotencyKey: `option.buy:${o.id}`,
          kind: "option.buy",
          reference: { type: "option_order", id: o.id },
          postings: [
            {
              account: { userId: o.userId, book: "real", wallet: "option", currency: "USDT" },
              amount: `-${cost}`,
            },
            { account: { system: "options_house", book: "real", currency: "USDT" }, amount: cost },
          ],
        };
      });
      for (let i = 0; i < purchases.length; i += 2000) {
        await postEntries(db, purchases.slice(i, i + 2000));
      }
      // BTC closes above its purchase price (up wins), ETH exactly on it (a tie refunds the amount).
      await tick("BTCUSDT", "100.5", new Date(expiry.getTime() + 1000));
      await tick("ETHUSDT", "50", new Date(expiry.getTime() + 1000));
      clock.now = new Date(expiry.getTime() + 1100);
      const started = performance.now();
      // Every purchase schedules its 100 ms slot's job: 10 slots for the second (a slot's job added
      // again after it has run finds nothing left to settle).
      await Promise.all(orders.map((o) => scheduler.schedule(new Date(o.expiresAt.getTime()), clock.now)));
      const [left] = await pool
        .query<{ n: number }>("select count(*)::int as n from option_orders where status = 'open'")
        .then((r) => r.rows);
      // Wait for the state (every order settled), polling the database.
      await vi.waitFor(
        async () => {
          const open = await pool.query<{ n: number }>(
            "select count(*)::int as n from option_orders where status = 'open'",
          );
          expect(open.rows[0]?.n).toBe(0);
        },
        { timeout: 60_000, interval: 50 },
      );
      console.log(`burst: ${left?.n} open orders settled in ${Math.round(performance.now() - started)} ms`);
      const byStatus = await pool.query<{ status: string; n: number; payout: string }>(
        "select status, count(*)::int as n, sum(payout)::text as payout from option_orders where id = any($1) group by status order by status",
        [orders.map((o) => o.id)],
      );
      // Independent of the settlement code: up on BTC wins 1.8 × amount, down on BTC loses, ETH ties.
      let won = new MoneyDecimal(0);
      let tied = new MoneyDecimal(0);
      let counts = { won: 0, lost: 0, tied: 0 };
      for (const o of orders) {
        if (o.symbol === "ETHUSDT") {
          tied = tied.plus(o.amount);
          counts = { ...counts, tied: counts.tied + 1 };
        } else if (o.direction === "up") {
          won = won.plus(new MoneyDecimal(o.amount).times("1.8"));
          counts = { ...counts, won: counts.won + 1 };
        } else {
          counts = { ...counts, lost: counts.lost + 1 };
        }
      }
      expect(byStatus.rows.map((r) => [r.status, r.n, new MoneyDecimal(r.payout).toFixed()])).toEqual([
        ["lost", counts.lost, "0"],
        ["tied", counts.tied, tied.toFixed()],
        ["won", counts.won, won.toFixed()],
      ]);
      const paid = await pool.query<{ n: number }>(
        "select count(*)::int as n from journal_entries where idempotency_key like 'option.settle:%' and reference_id = any($1)",
        [orders.map((o) => String(o.id))],
      );
      expect(paid.rows[0]?.n).toBe(counts.won + counts.tied);
      expect((await reconcileLedger(db)).ok).toBe(true);
    } finally {
      await scheduler.close();
      await worker.close();
    }
  }, 120_000);
});
