import { randomBytes } from "node:crypto";
import {
  c2cExpiryJobId,
  createC2cExpiryScheduler,
  createC2cOrder,
  createMerchant,
  getC2cOrder,
  moveMerchantStock,
  submitC2cProof,
} from "@northstar/domain/c2c";
import type { Db } from "@northstar/domain/db";
import { type User, users } from "@northstar/domain/identity";
import { kycApplications } from "@northstar/domain/kyc";
import { reconcileLedger } from "@northstar/domain/ledger";
import { listMessages, useMessagePublisher, userEventsChannel } from "@northstar/domain/messages";
import { uploads } from "@northstar/domain/uploads";
import { JOBS, QUEUES } from "@northstar/shared/jobs";
import { MoneyDecimal } from "@northstar/shared/money";
import { Queue, QueueEvents } from "bullmq";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startC2cExpiry } from "./queues/c2c-expiry.ts";
import { useWorkerTestBed, type WorkerTestBed } from "./test/queue-test-bed.ts";

/**
 * The c2c-expiry worker against real PostgreSQL, Redis and BullMQ: an unpaid order expires at its
 * deadline and its reserved stock returns once, when the job is delivered twice, when the worker was
 * down over the deadline (the sweep on start), and never after a proof stopped the clock. Time is a
 * test clock the test moves; nothing sleeps.
 */
const bed = useWorkerTestBed("c2c");
const { redis: connection, prefix } = bed;
let db: Db;
let pool: WorkerTestBed["pool"];
let queue: Queue;
let events: QueueEvents;
const clock = { now: new Date(Date.UTC(2026, 6, 1, 9, 0, 0)) };
const now = () => clock.now;
const THREE_HOURS = 3 * 3_600_000;

beforeAll(async () => {
  ({ db, pool } = bed);
  queue = new Queue(QUEUES.c2cExpiry, { connection, prefix });
  events = new QueueEvents(QUEUES.c2cExpiry, { connection: connection.duplicate(), prefix });
  await events.waitUntilReady();
});
afterAll(async () => {
  await events?.close();
  await queue?.close();
});
afterEach(async () => {
  expect((await reconcileLedger(db)).ok).toBe(true);
});

/** A real user with primary KYC approved. */
async function createC2cUser(): Promise<User> {
  const uid = randomBytes(6).toString("hex");
  const [user] = await db
    .insert(users)
    .values({ uid, passwordHash: "x", nationality: "GB", inviteCode: `E${uid}`, nickname: `E${uid}` })
    .returning();
  if (!user) {
    throw new Error("insert failed");
  }
  await db
    .insert(kycApplications)
    .values({ userId: user.id, level: "primary", status: "approved", details: {}, photos: [] });
  return user;
}

async function createProofUpload(userId: number): Promise<string> {
  const [row] = await db
    .insert(uploads)
    .values({ ownerUserId: userId, purpose: "proof", mime: "image/png", size: 1, sha256: "0" })
    .returning({ id: uploads.id });
  return row?.id ?? "";
}

/** The merchant's escrow and reserved balances in the ledger. */
async function ledgerStock(merchantId: number) {
  const rows = await pool.query<{ system_code: string; balance: string }>(
    "select system_code, balance::text from ledger_accounts where system_code = any($1) order by system_code",
    [[`c2c_escrow:${merchantId}`, `c2c_reserved:${merchantId}`]],
  );
  const get = (code: string) =>
    new MoneyDecimal(rows.rows.find((r) => r.system_code === code)?.balance ?? "0").toFixed();
  return { escrow: get(`c2c_escrow:${merchantId}`), reserved: get(`c2c_reserved:${merchantId}`) };
}

async function matchedOrder(user?: User) {
  const m = await createMerchant(
    db,
    {
      name: "Wire desk",
      coin: "USDT",
      fiat: "CNY",
      price: "7",
      min_fiat: "10",
      max_fiat: "100000",
      payee_name: "Payee",
      bank_name: "Bank",
      bank_account: "1234 5678",
      bank_branch: "",
      note: "",
    },
    "op:test",
  );
  await moveMerchantStock(db, "fund", { merchant_id: m.id, amount: "100" }, "op:test");
  const buyer = user ?? (await createC2cUser());
  const order = await createC2cOrder({ db, now }, buyer, {
    merchant_id: m.id,
    coin: "USDT",
    mode: "coin",
    amount: "40",
  });
  expect(order.status).toBe("matched");
  return { m, buyer, order };
}
const releases = async (orderId: number) =>
  (
    await pool.query<{ n: number }>(
      "select count(*)::int as n from journal_entries where idempotency_key = $1",
      [`c2c:order:${orderId}:release`],
    )
  ).rows[0]?.n;

describe("the c2c-expiry worker", () => {
  it("expires once when the expiry job of an order is delivered twice", async () => {
    const worker = startC2cExpiry({ db, connection, prefix, now, sweepIntervalMs: 3_600_000 });
    await worker.started;
    try {
      const { m, buyer, order } = await matchedOrder();
      clock.now = new Date(clock.now.getTime() + THREE_HOURS);
      const jobs = await Promise.all(
        ["a", "b"].map((copy) =>
          queue.add(JOBS.expireC2cOrder, { orderId: order.id }, { jobId: `twice-${order.id}-${copy}` }),
        ),
      );
      const results = await Promise.all(jobs.map((job) => job.waitUntilFinished(events, 30_000)));
      expect(results.sort()).toEqual(["expired", "stopped"]);
      expect((await getC2cOrder(db, buyer.id, order.id)).status).toBe("expired");
      expect(await ledgerStock(m.id)).toEqual({ escrow: "100", reserved: "0" });
      expect(await releases(order.id)).toBe(1);
    } finally {
      await worker.close();
    }
  });

  it("a job that comes before the deadline waits for it, then expires exactly at it", async () => {
    const worker = startC2cExpiry({ db, connection, prefix, now, sweepIntervalMs: 3_600_000 });
    await worker.started;
    try {
      const { buyer, order } = await matchedOrder();
      const deadline = order.expiresAt.getTime();
      expect(deadline - clock.now.getTime()).toBe(THREE_HOURS);
      // The test clock stands 300 ms before the deadline: the job finds it not due and waits.
      clock.now = new Date(deadline - 300);
      const job = await queue.add(JOBS.expireC2cOrder, { orderId: order.id }, { jobId: `early-${order.id}` });
      await expect
        .poll(async () => (await queue.getJob(job.id as string))?.isDelayed(), { timeout: 30_000 })
        .toBe(true);
      expect((await getC2cOrder(db, buyer.id, order.id)).status).toBe("matched");
      // The clock reaches the deadline exactly; the delayed job comes back and expires the order.
      clock.now = new Date(deadline);
      expect(await job.waitUntilFinished(events, 30_000)).toBe("expired");
      expect((await getC2cOrder(db, buyer.id, order.id)).expiredAt?.getTime()).toBe(deadline);
    } finally {
      await worker.close();
    }
  });

  it("expires on start what fell due while it was stopped, once, and the late job then changes nothing", async () => {
    // No worker runs: the order is matched and its job scheduled for the deadline.
    const scheduler = createC2cExpiryScheduler(connection, prefix);
    const { m, buyer, order } = await matchedOrder();
    await scheduler.schedule(order.id, order.expiresAt, clock.now);
    await scheduler.close();
    const job = await queue.getJob(c2cExpiryJobId(order.id));
    expect(await job?.isDelayed()).toBe(true);
    clock.now = new Date(order.expiresAt.getTime() + 3_600_000);
    const worker = startC2cExpiry({ db, connection, prefix, now, sweepIntervalMs: 3_600_000 });
    try {
      await worker.started;
      expect((await getC2cOrder(db, buyer.id, order.id)).status).toBe("expired");
      expect(await ledgerStock(m.id)).toEqual({ escrow: "100", reserved: "0" });
      // The job delivered now (its real delay cut short) finds the order expired already.
      await job?.promote();
      expect(await job?.waitUntilFinished(events, 30_000)).toBe("stopped");
      expect(await releases(order.id)).toBe(1);
    } finally {
      await worker.close();
    }
  });

  it("a proof submitted before the deadline stops the clock: the job and the sweep leave the order paid", async () => {
    const worker = startC2cExpiry({ db, connection, prefix, now, sweepIntervalMs: 3_600_000 });
    await worker.started;
    try {
      const { m, buyer, order } = await matchedOrder();
      clock.now = new Date(order.expiresAt.getTime() - 1000);
      await submitC2cProof({ db, now }, buyer, {
        order_id: order.id,
        proof_upload_id: await createProofUpload(buyer.id),
        note: "",
      });
      clock.now = new Date(order.expiresAt.getTime() + 1000);
      const job = await queue.add(JOBS.expireC2cOrder, { orderId: order.id }, { jobId: `paid-${order.id}` });
      expect(await job.waitUntilFinished(events, 30_000)).toBe("stopped");
      await worker.sweep();
      expect((await getC2cOrder(db, buyer.id, order.id)).status).toBe("paid");
      expect(await ledgerStock(m.id)).toEqual({ escrow: "60", reserved: "40" });
      expect(await releases(order.id)).toBe(0);
    } finally {
      await worker.close();
    }
  });

  it("the expiry's message reaches the buyer's user channel live, from the worker's own commit", async () => {
    // As the worker's main does at start for its database handle.
    useMessagePublisher(db, connection, prefix);
    const worker = startC2cExpiry({ db, connection, prefix, now, sweepIntervalMs: 3_600_000 });
    await worker.started;
    const subscriber = connection.duplicate();
    try {
      const { buyer, order } = await matchedOrder();
      const heard: { ch: string; data: { type?: string; unread?: number } }[] = [];
      subscriber.on("message", (_ch: string, raw: string) => heard.push(JSON.parse(raw)));
      await subscriber.subscribe(userEventsChannel(prefix, buyer.id));
      clock.now = new Date(order.expiresAt.getTime() + 1000);
      const job = await queue.add(JOBS.expireC2cOrder, { orderId: order.id }, { jobId: `live-${order.id}` });
      expect(await job.waitUntilFinished(events, 30_000)).toBe("expired");
      // The matched and the expired message: two unread, announced on the channel the socket forwards.
      await expect
        .poll(() => heard.find((e) => e.data.type === "messages" && e.data.unread === 2), { timeout: 30_000 })
        .toMatchObject({ ch: "user" });
      const inbox = await listMessages(db, buyer.id, "en", { page: 1, pageSize: 10 });
      expect(inbox.list.map((m) => m.kind)).toEqual(["c2c.expired", "c2c.matched"]);
    } finally {
      subscriber.disconnect();
      await worker.close();
    }
  });
});
