import { getContractPosition, openContractPosition, recordContractTicks } from "@northstar/domain/contracts";
import type { Db } from "@northstar/domain/db";
import { reconcileLedger } from "@northstar/domain/ledger";
import { JOBS, QUEUES } from "@northstar/shared/jobs";
import { QueueEvents } from "bullmq";
import { beforeAll, describe, expect, it } from "vitest";
import { newContractUser } from "../../../packages/domain/src/contracts/testing.ts";
import { startContractOvernightWorker } from "./queues/contract-overnight.ts";
import { useWorkerTestBed, type WorkerTestBed } from "./test/queue-test-bed.ts";

/**
 * The contract-overnight queue against real PostgreSQL, Redis and a BullMQ worker: a run delivered
 * twice charges a day once, and a worker stopped across several days charges each missed day once
 * when it comes back. The clock is a test clock; nothing sleeps.
 */
const bed = useWorkerTestBed("overnight");
const { redis, prefix } = bed;
let db: Db;
let pool: WorkerTestBed["pool"];
let clock = new Date("2026-03-04T15:00:00Z");
const deps = () => ({ db, now: () => clock, log: () => {} });

beforeAll(() => {
  ({ db, pool } = bed);
});

const charges = async (positionId: number) =>
  (
    await pool.query<{ n: number }>(
      "select count(*)::int as n from journal_entries where idempotency_key like $1",
      [`contract.overnight:${positionId}:%`],
    )
  ).rows[0]?.n;

describe("the contract-overnight queue", () => {
  it("charges a day once when delivered twice, and each missed day once after a stop across days", async () => {
    const user = await newContractUser(db, "10000");
    await recordContractTicks(db, [{ symbol: "ETHUSDT", price: "3000", time: clock.getTime() - 100 }]);
    const p = await openContractPosition({ db, now: () => clock }, user, {
      symbol: "ETHUSDT",
      side: "short",
      order_type: "market",
      lots: "1",
      leverage: 10,
    });
    const events = new QueueEvents(QUEUES.contractOvernight, { connection: redis.duplicate(), prefix });
    await events.waitUntilReady();

    // 5 March 00:10: one day is due.
    clock = new Date("2026-03-05T00:10:00Z");
    let { worker, queue } = await startContractOvernightWorker(redis, prefix, deps());
    const first = await queue.add(JOBS.chargeOvernight, {});
    const second = await queue.add(JOBS.chargeOvernight, {});
    await Promise.all([first.waitUntilFinished(events), second.waitUntilFinished(events)]);
    expect(await charges(p.id)).toBe(1);
    // 3000 × 1 × 0.0003 = 0.9 from the margin of 300.
    expect((await getContractPosition(db, user, p.id)).position).toMatchObject({
      margin: "299.1",
      overnight_total: "0.9",
    });
    expect((await queue.getJobSchedulers()).map((s) => s.key)).toContain("contract-overnight-10min");
    await worker.close();
    await queue.close();

    // Stopped until 8 March 12:00: 6, 7 and 8 March are due; the restarted worker's start-up run charges them.
    clock = new Date("2026-03-08T12:00:00Z");
    ({ worker, queue } = await startContractOvernightWorker(redis, prefix, deps()));
    await new Promise<void>((resolve) => worker.once("drained", () => resolve()));
    expect(await charges(p.id)).toBe(4);
    const again = await queue.add(JOBS.chargeOvernight, {});
    await again.waitUntilFinished(events);
    expect(await charges(p.id)).toBe(4);
    expect((await getContractPosition(db, user, p.id)).position).toMatchObject({
      margin: "296.4",
      overnight_total: "3.6",
    });
    expect((await reconcileLedger(db)).ok).toBe(true);
    await worker.close();
    await queue.close();
    await events.close();
  });
});
