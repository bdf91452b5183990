import type { Db } from "@northstar/domain/db";
import { postEntry, reconcileLedger } from "@northstar/domain/ledger";
import { listReferralPayouts } from "@northstar/domain/referral";
import { JOBS, QUEUES } from "@northstar/shared/jobs";
import { QueueEvents } from "bullmq";
import { beforeAll, describe, expect, it } from "vitest";
import { createTrader } from "../../../packages/domain/src/spot/testing.ts";
import { startReferralRewardsWorker } from "./queues/referral-rewards.ts";
import { useWorkerTestBed } from "./test/queue-test-bed.ts";

/*
 * The referral-rewards queue through real BullMQ and Redis, with a test clock: a run delivered twice
 * pays a day once, and a worker stopped across several days pays exactly the missed days on start.
 */
const bed = useWorkerTestBed("referral");
const { redis, prefix } = bed;
let db: Db;
const query = (text: string, values: unknown[]) => bed.pool.query(text, values);
let clock = new Date("2026-05-02T00:20:00Z");
const deps = () => ({ db, now: () => clock, log: () => {} });

beforeAll(() => {
  db = bed.db;
});

/** A contract fee of `fee` USDT paid by `userId`, recorded at `when`. */
async function fee(userId: number, amount: string, when: string) {
  const key = `test:fee:${userId}:${when}`;
  await postEntry(db, {
    idempotencyKey: key,
    kind: "contract.open",
    reference: { type: "contract_position", id: key },
    postings: [
      { account: { userId, book: "real", wallet: "contract", currency: "USDT" }, amount: `-${amount}` },
      { account: { system: "fees", book: "real", currency: "USDT" }, amount },
    ],
  });
  await query("update journal_entries set created_at = $1 where idempotency_key = $2", [when, key]);
}

describe("the referral-rewards queue", () => {
  it("pays a day once when the job is delivered twice, and catches up exactly after a stop", async () => {
    const inviter = await createTrader(db, {});
    const invitee = await createTrader(db, { USDT: "1000" }, "real", "contract");
    await query("update users set invited_by = $1 where id = $2", [inviter.id, invitee.id]);
    for (const day of ["01", "02", "03", "04", "05"]) {
      await fee(invitee.id, "10", `2026-05-${day}T12:00:00Z`);
    }
    const events = new QueueEvents(QUEUES.referralRewards, { connection: redis.duplicate(), prefix });
    await events.waitUntilReady();
    const paidDays = async () =>
      (await listReferralPayouts(db, { page: 1, pageSize: 50 })).items
        .map((p) => `${p.day} ${p.amount}`)
        .sort();

    let { worker, queue } = await startReferralRewardsWorker(redis, prefix, deps());
    await new Promise<void>((resolve) => worker.once("drained", () => resolve()));
    const first = await queue.add(JOBS.payReferralRewards, {});
    const second = await queue.add(JOBS.payReferralRewards, {});
    await Promise.all([first.waitUntilFinished(events), second.waitUntilFinished(events)]);
    expect(await paidDays()).toEqual(["2026-05-01 2"]);
    expect((await queue.getJobSchedulers()).map((s) => s.key)).toContain("referral-rewards-daily");
    await worker.close();
    await queue.close();

    // Stopped until 5 May noon: 2, 3 and 4 May are due; the restarted worker's first run pays them.
    clock = new Date("2026-05-05T12:00:00Z");
    ({ worker, queue } = await startReferralRewardsWorker(redis, prefix, deps()));
    await new Promise<void>((resolve) => worker.once("drained", () => resolve()));
    expect(await paidDays()).toEqual(["2026-05-01 2", "2026-05-02 2", "2026-05-03 2", "2026-05-04 2"]);
    await (await queue.add(JOBS.payReferralRewards, {})).waitUntilFinished(events);
    expect(await paidDays()).toHaveLength(4);
    expect((await reconcileLedger(db)).ok).toBe(true);
    await worker.close();
    await queue.close();
    await events.close();
  });
});
