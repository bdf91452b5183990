import type { Db } from "@northstar/domain/db";
import { type User, users } from "@northstar/domain/identity";
import {
  allocateOffering,
  createOffering,
  listUserSubscriptions,
  subscribe,
} from "@northstar/domain/launchpad";
import { getUserBalances, postEntry } from "@northstar/domain/ledger";
import { JOBS, QUEUES } from "@northstar/shared/jobs";
import { QueueEvents } from "bullmq";
import { beforeAll, describe, expect, it } from "vitest";
import { startLaunchpadUnlockWorker } from "./queues/launchpad-unlock.ts";
import { useWorkerTestBed } from "./test/queue-test-bed.ts";

/*
 * The launchpad-unlock queue with a test clock: nothing is released before the lock-up ends; a
 * worker stopped across that moment releases the coins on its start-up run, and further deliveries
 * release nothing twice.
 */
const bed = useWorkerTestBed("unlock");
const { redis, prefix } = bed;
let db: Db;
let clock = new Date("2026-09-08T00:00:00Z");
const deps = () => ({ db, now: () => clock, log: () => {} });

beforeAll(() => {
  db = bed.db;
});

async function fundedUser(): Promise<User> {
  const [user] = await db
    .insert(users)
    .values({ uid: "71234567", passwordHash: "x", nationality: "GB", inviteCode: "UNL1", nickname: "U" })
    .returning();
  if (!user) {
    throw new Error("insert failed");
  }
  await postEntry(db, {
    idempotencyKey: `grant:${user.id}`,
    kind: "test.grant",
    reference: { type: "test", id: user.id },
    postings: [
      { account: { system: "deposit_clearing:test", book: "real", currency: "USDT" }, amount: "-1000" },
      { account: { userId: user.id, book: "real", wallet: "exchange", currency: "USDT" }, amount: "1000" },
    ],
  });
  return user;
}

describe("the launchpad-unlock queue", () => {
  it("releases locked coins once, after the lock-up, catching up after a stop", async () => {
    const o = await createOffering(
      db,
      {
        coin: "NEWC",
        name: "New coin",
        pay_currency: "USDT",
        issue_price: "1",
        subscribe_price: "1",
        total_quantity: "10000",
        min_quantity: "1",
        max_quantity: "1000",
        starts_at: new Date("2026-09-01T00:00:00Z"),
        ends_at: new Date("2026-09-07T00:00:00Z"),
        lock_days: 10,
        listing_day: "2026-09-10",
        circulation: "1000000",
      },
      "test",
    );
    const u = await fundedUser();
    await subscribe(db, u, { offering_id: o.id, quantity: "100" }, new Date("2026-09-02T00:00:00Z"));
    await allocateOffering(db, o.id, "test", clock);
    const coin = async () =>
      (await getUserBalances(db, u.id, "real")).find((b) => b.wallet === "exchange" && b.currency === "NEWC");
    const events = new QueueEvents(QUEUES.launchpadUnlock, { connection: redis.duplicate(), prefix });
    await events.waitUntilReady();

    clock = new Date("2026-09-17T23:59:00Z");
    let { worker, queue } = await startLaunchpadUnlockWorker(redis, prefix, deps());
    await (await queue.add(JOBS.unlockCoins, {})).waitUntilFinished(events);
    expect(Number((await coin())?.held)).toBe(100);
    await worker.close();
    await queue.close();

    clock = new Date("2026-09-25T00:00:00Z");
    ({ worker, queue } = await startLaunchpadUnlockWorker(redis, prefix, deps()));
    await new Promise<void>((resolve) => worker.once("drained", () => resolve()));
    const [first, second] = await Promise.all([
      queue.add(JOBS.unlockCoins, {}),
      queue.add(JOBS.unlockCoins, {}),
    ]);
    await Promise.all([first.waitUntilFinished(events), second.waitUntilFinished(events)]);
    expect(Number((await coin())?.available)).toBe(100);
    expect(Number((await coin())?.held)).toBe(0);
    const [record] = await listUserSubscriptions(db, u.id, 1, 10);
    expect(record?.unlocked).toBe(true);
    await worker.close();
    await queue.close();
    await events.close();
  });
});
