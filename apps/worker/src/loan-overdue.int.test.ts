import { randomBytes } from "node:crypto";
import type { Db } from "@northstar/domain/db";
import { reconcileLedger } from "@northstar/domain/ledger";
import {
  applyForLoan,
  approveLoan,
  createLoanProduct,
  getUserLoan,
  listLateFeeDays,
} from "@northstar/domain/loans";
import { createFixedPriceProvider } from "@northstar/domain/markets";
import { listMessages, useMessagePublisher, userEventsChannel } from "@northstar/domain/messages";
import { JOBS, QUEUES } from "@northstar/shared/jobs";
import { QueueEvents } from "bullmq";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { borrower, openLoansDb, proofs } from "../../../packages/domain/src/loans/test/helpers.ts";
import { testRedisUrl } from "../../../packages/domain/src/test-support/index.ts";
import { startLoanOverdueWorker } from "./queues/loan-overdue.ts";

/*
 * The loan-overdue queue through real BullMQ and Redis, with a test clock: a run delivered twice
 * charges a day's late fee once, and a worker stopped across several days charges exactly the
 * missed days when it starts again (its start-up run).
 */
let db: Db;
let dir: string;
let close: () => Promise<void>;
const redis = new Redis(testRedisUrl(), { maxRetriesPerRequest: null });
const prefix = `test:loans:${randomBytes(3).toString("hex")}`;
let clock = new Date("2026-05-01T09:00:00Z");
const deps = () => ({ db, now: () => clock, log: () => {} });

beforeAll(async () => {
  const opened = await openLoansDb();
  db = opened.db;
  dir = opened.uploadDir;
  close = async () => {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) {
      await redis.del(...keys);
    }
    redis.disconnect();
    await opened.close();
  };
});
afterAll(async () => {
  await close?.();
});

describe("the loan-overdue queue", () => {
  it("charges a day once when the job is delivered twice, and catches up exactly after a stop", async () => {
    const product = await createLoanProduct(
      db,
      {
        name: "Seven days",
        currency: "USDT",
        cycle_days: [7],
        daily_rate: "0.001",
        overdue_rate: "0.005",
        min_amount: "100",
        max_amount: "5000",
        enabled: true,
      },
      "test",
    );
    const user = await borrower(db, dir);
    const loan = await applyForLoan(
      db,
      createFixedPriceProvider(),
      user,
      {
        product_id: product.id,
        amount: "1000",
        cycle_days: 7,
        agree: true,
        ...(await proofs(db, dir, user)),
      },
      clock,
    );
    // Disbursed 1 May: due 8 May, interest-free to 11 May, the first late fee on 12 May.
    await approveLoan(db, { loanId: loan.id, operatorId: 1, actor: "operator:1" }, clock);
    // As the worker's main does: the job's messages announce the owner's badge after its commit.
    useMessagePublisher(db, redis, prefix);
    const subscriber = redis.duplicate();
    const badges: number[] = [];
    subscriber.on("message", (_ch: string, raw: string) => {
      const data = (JSON.parse(raw) as { data: { type?: string; unread?: number } }).data;
      if (data.type === "messages" && typeof data.unread === "number") {
        badges.push(data.unread);
      }
    });
    await subscriber.subscribe(userEventsChannel(prefix, user.id));
    const inbox = () => listMessages(db, user.id, "en", { page: 1, pageSize: 20 });
    const kinds = async () =>
      (await inbox()).list.map((m) => m.kind).filter((kind) => kind.startsWith("loan."));
    const events = new QueueEvents(QUEUES.loanOverdue, { connection: redis.duplicate(), prefix });
    await events.waitUntilReady();
    const view = () => getUserLoan(db, user.id, loan.id);
    const feeDays = async () => (await listLateFeeDays(db, loan.id)).map((d) => d.day);

    clock = new Date("2026-05-11T00:10:00Z");
    let { worker, queue } = await startLoanOverdueWorker(redis, prefix, deps());
    await (await queue.add(JOBS.markLoansOverdue, {})).waitUntilFinished(events);
    expect(await view()).toMatchObject({ status: "disbursed", overdueDays: 0, lateFees: "0.00" });

    clock = new Date("2026-05-12T00:10:00Z");
    const first = await queue.add(JOBS.markLoansOverdue, {});
    const second = await queue.add(JOBS.markLoansOverdue, {});
    await Promise.all([first.waitUntilFinished(events), second.waitUntilFinished(events)]);
    expect(await view()).toMatchObject({ status: "overdue", overdueDays: 1, lateFees: "5.00" });
    // Told once that it is overdue (beside the approval), live on the user's channel.
    expect(await kinds()).toEqual(["loan.overdue", "loan.approved"]);
    const unread = (await inbox()).unread;
    await expect.poll(() => badges.at(-1), { timeout: 30_000 }).toBe(unread);
    expect((await queue.getJobSchedulers()).map((s) => s.key)).toContain("loan-overdue-daily");
    await worker.close();
    await queue.close();

    // Stopped until 16 May 12:00: the 13th to the 16th are due; the restarted worker's first run charges them.
    clock = new Date("2026-05-16T12:00:00Z");
    ({ worker, queue } = await startLoanOverdueWorker(redis, prefix, deps()));
    await new Promise<void>((resolve) => worker.once("drained", () => resolve()));
    expect(await view()).toMatchObject({ status: "overdue", overdueDays: 5, lateFees: "25.00" });
    expect(await feeDays()).toEqual(["2026-05-12", "2026-05-13", "2026-05-14", "2026-05-15", "2026-05-16"]);
    // Delivered again the same day: nothing more.
    await (await queue.add(JOBS.markLoansOverdue, {})).waitUntilFinished(events);
    expect((await view()).overdueDays).toBe(5);
    // More late days, no more messages.
    expect(await kinds()).toEqual(["loan.overdue", "loan.approved"]);
    subscriber.disconnect();
    expect((await reconcileLedger(db)).ok).toBe(true);
    await worker.close();
    await queue.close();
    await events.close();
  });
});
