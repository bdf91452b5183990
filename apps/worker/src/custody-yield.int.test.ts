import type { Db } from "@northstar/domain/db";
import { buyProduct, createProduct, getUserOrder } from "@northstar/domain/earn";
import { type User, users } from "@northstar/domain/identity";
import { getUserBalances, postEntry, reconcileLedger } from "@northstar/domain/ledger";
import { createFixedPriceProvider } from "@northstar/domain/markets";
import { JOBS, QUEUES } from "@northstar/shared/jobs";
import { MoneyDecimal } from "@northstar/shared/money";
import { QueueEvents } from "bullmq";
import { beforeAll, describe, expect, it } from "vitest";
import { startCustodyYieldWorker } from "./queues/custody-yield.ts";
import { useWorkerTestBed } from "./test/queue-test-bed.ts";

/*
 * The custody-yield queue through real BullMQ and Redis, with a test clock: a job delivered twice
 * pays a day once, and a worker stopped across several days pays exactly the missed days when it
 * starts again (its start-up run), never past maturity.
 */
const bed = useWorkerTestBed("custody");
const { redis, prefix } = bed;
let db: Db;
let clock = new Date("2026-05-01T09:00:00Z");
const deps = () => ({ db, now: () => clock, log: () => {} });
const count = async (orderId: number) => {
  const r = await bed.pool.query(
    "select count(*)::int as n from journal_entries where kind = 'earn.yield' and reference_id = $1",
    [String(orderId)],
  );
  return Number(r.rows[0]?.n);
};

beforeAll(() => {
  db = bed.db;
});

async function fundedUser(funds: string): Promise<User> {
  const [user] = await db
    .insert(users)
    .values({
      uid: String(Date.now()).slice(-8),
      passwordHash: "x",
      nationality: "GB",
      inviteCode: "Y1",
      nickname: "Y",
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
      { account: { userId: user.id, book: "real", wallet: "exchange", currency: "USDT" }, amount: funds },
    ],
  });
  return user;
}

const available = async (userId: number) =>
  new MoneyDecimal(
    (await getUserBalances(db, userId, "real")).find((b) => b.wallet === "exchange" && b.currency === "USDT")
      ?.available ?? 0,
  ).toFixed();

describe("the custody-yield queue", () => {
  it("pays a day once when the job is delivered twice, and catches up exactly after a stop", async () => {
    const product = await createProduct(
      db,
      {
        family: "vip",
        name: "VIP 7",
        currency: "USDT",
        cycle_days: 7,
        rate_min: "0.005",
        rate_max: "0.005",
        min_amount: "100",
        max_amount: "100000",
        user_limit: "100000",
        user_count: 3,
        capacity: "1000000",
        risk_level: "conservative",
        redemption_rule: "percent",
      },
      "test",
    );
    const user = await fundedUser("1000");
    const order = await buyProduct(
      db,
      createFixedPriceProvider(),
      user,
      { product_id: product.id, amount: "1000" },
      clock,
    );
    const events = new QueueEvents(QUEUES.custodyYield, { connection: redis.duplicate(), prefix });
    await events.waitUntilReady();

    clock = new Date("2026-05-02T00:10:00Z");
    let { worker, queue } = await startCustodyYieldWorker(redis, prefix, deps());
    // The start-up run and two more deliveries of the same day.
    const first = await queue.add(JOBS.dailyYield, {});
    const second = await queue.add(JOBS.dailyYield, {});
    await Promise.all([first.waitUntilFinished(events), second.waitUntilFinished(events)]);
    const row = () => getUserOrder(db, user.id, order.id, clock);
    expect((await row())?.paidDays).toBe(1);
    expect(await available(user.id)).toBe("5");
    const schedulers = await queue.getJobSchedulers();
    expect(schedulers.map((s) => s.key)).toContain("custody-yield-hourly");
    await worker.close();
    await queue.close();

    // Stopped until 5 May 12:00: days 2, 3 and 4 are due; the restarted worker's first run pays them.
    clock = new Date("2026-05-05T12:00:00Z");
    ({ worker, queue } = await startCustodyYieldWorker(redis, prefix, deps()));
    const drained = new Promise<void>((resolve) => worker.once("drained", () => resolve()));
    await drained;
    expect((await row())?.paidDays).toBe(4);
    expect(await available(user.id)).toBe("20");
    await worker.close();
    await queue.close();

    // Stopped past maturity (8 May): the rest, then the principal, and nothing more.
    clock = new Date("2026-06-30T00:00:00Z");
    ({ worker, queue } = await startCustodyYieldWorker(redis, prefix, deps()));
    const again = await queue.add(JOBS.dailyYield, {});
    await again.waitUntilFinished(events);
    const done = await row();
    expect(done?.status).toBe("completed");
    expect(done?.paidDays).toBe(7);
    expect(await available(user.id)).toBe("1035");
    expect(await count(order.id)).toBe(7);
    expect((await reconcileLedger(db)).ok).toBe(true);
    await worker.close();
    await queue.close();
    await events.close();
  });
});
