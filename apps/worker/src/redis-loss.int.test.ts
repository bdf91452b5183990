import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { createServer } from "node:net";
import { latestReconcileRun } from "@northstar/domain/ledger";
import { QUEUES } from "@northstar/shared/jobs";
import { Queue } from "bullmq";
import { Redis } from "ioredis";
import { afterAll, describe, expect, it, vi } from "vitest";
import { startCustodyYieldWorker } from "./queues/custody-yield.ts";
import { startLedgerReconcileWorker } from "./queues/ledger-reconcile.ts";
import { useWorkerTestBed } from "./test/queue-test-bed.ts";

/*
 * Redis loses everything while workers run: a real redis-server of this test's own, killed with
 * SIGKILL and started again empty on the same port. BullMQ kept the daily jobs' schedulers only in
 * Redis; the workers notice they are gone, register them again and run the catch-up from PostgreSQL's
 * truth, once.
 */
const bed = useWorkerTestBed("redis-loss");
const closers: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const close of closers.reverse()) {
    await close().catch(() => {});
  }
});

async function freePort(): Promise<number> {
  const probe = createServer().listen(0, "127.0.0.1");
  await once(probe, "listening");
  const address = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  return typeof address === "object" && address ? address.port : 0;
}

async function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn(
    "redis-server",
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
    {
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  await new Promise<void>((resolve, reject) => {
    let out = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes("Ready to accept connections")) {
        resolve();
      }
    });
    child.once("exit", (code) => reject(new Error(`redis-server exited with ${code}`)));
  });
  return child;
}

const countRuns = async () =>
  Number((await bed.pool.query("select count(*)::int as n from ledger_reconcile_runs")).rows[0]?.n);

describe("Redis restarted empty under running workers", () => {
  it("gets the schedulers back and runs what fell due once, from PostgreSQL", async () => {
    const port = await freePort();
    let redisProcess = await startRedis(port);
    closers.push(async () => redisProcess.kill("SIGKILL"));
    const connection = new Redis({
      port,
      host: "127.0.0.1",
      maxRetriesPerRequest: null,
      retryStrategy: () => 50,
    });
    connection.on("error", () => {});
    closers.push(async () => connection.disconnect());
    const prefix = "ns";
    let clock = new Date("2026-11-28T04:05:00Z");
    const deps = { db: bed.db, now: () => clock, log: () => {} };

    const reconcile = await startLedgerReconcileWorker(connection, prefix, deps);
    const yieldQueue = await startCustodyYieldWorker(connection, prefix, deps);
    closers.push(
      () => reconcile.worker.close(true),
      () => yieldQueue.worker.close(true),
    );
    await vi.waitFor(async () => expect(await countRuns()).toBe(1), { timeout: 60_000 });
    // Nothing is missing yet: the check registers nothing.
    expect(await reconcile.schedules.check()).toBe(false);

    // Redis dies and comes back with nothing in it.
    redisProcess.kill("SIGKILL");
    await once(redisProcess, "exit");
    redisProcess = await startRedis(port);
    await vi.waitFor(async () => expect(await connection.ping()).toBe("PONG"), { timeout: 30_000 });
    const probe = new Queue(QUEUES.ledgerReconcile, { connection, prefix });
    closers.push(() => probe.close());
    expect(await probe.getJobSchedulers()).toEqual([]);

    // Time passes into the next slot while the schedulers are gone; then the workers' checks run
    // (twice each, and at once: as two workers would).
    clock = new Date("2026-11-28T04:20:00Z");
    const [again, twice] = await Promise.all([reconcile.schedules.check(), reconcile.schedules.check()]);
    expect(again || twice).toBe(true);
    expect(await yieldQueue.schedules.check()).toBe(true);
    expect((await probe.getJobSchedulers()).map((s) => s.key ?? s.id)).toHaveLength(1);
    const yieldProbe = new Queue(QUEUES.custodyYield, { connection, prefix });
    closers.push(() => yieldProbe.close());
    expect(await yieldProbe.getJobSchedulers()).toHaveLength(1);

    await vi.waitFor(async () => expect(await countRuns()).toBe(2), { timeout: 60_000 });
    expect((await latestReconcileRun(bed.db))?.slot.toISOString()).toBe("2026-11-28T04:15:00.000Z");
    // Checked again: present now, nothing more registered, and the slot recorded once.
    expect(await reconcile.schedules.check()).toBe(false);
    await reconcile.queue.add("reconcile-ledger", {});
    await vi.waitFor(
      async () =>
        expect(await reconcile.queue.getJobCounts("waiting", "active")).toMatchObject({
          waiting: 0,
          active: 0,
        }),
      {
        timeout: 60_000,
      },
    );
    expect(await countRuns()).toBe(2);
  }, 240_000);
});
