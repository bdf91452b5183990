import { latestReconcileRun } from "@northstar/domain/ledger";
import { JOBS, QUEUES } from "@northstar/shared/jobs";
import { Queue, QueueEvents } from "bullmq";
import { Redis } from "ioredis";
import { afterAll, describe, expect, it, vi } from "vitest";
import { testRedisUrl } from "../../../packages/domain/src/test-support/index.ts";
import { startWorkerHttp } from "./http.ts";
import { runShards, runUnderLease } from "./leased.ts";
import { startLedgerReconcileWorker } from "./queues/ledger-reconcile.ts";
import { useWorkerTestBed } from "./test/queue-test-bed.ts";

/*
 * The worker's own HTTP face (health, readiness with its leases, metrics) and the scheduled
 * reconciliation it runs: once per slot however often delivered, caught up at start after a stop.
 */
const bed = useWorkerTestBed("worker-http");
const closers: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const close of closers.reverse()) {
    await close();
  }
});

const countRuns = async () =>
  Number((await bed.pool.query("select count(*)::int as n from ledger_reconcile_runs")).rows[0]?.n);

describe("the ledger-reconcile queue", () => {
  it("records one run per slot when delivered twice, and catches up the current slot after a stop", async () => {
    let clock = new Date("2026-11-28T04:07:00Z");
    const deps = { db: bed.db, now: () => clock, log: () => {} };
    const events = new QueueEvents(QUEUES.ledgerReconcile, {
      connection: bed.redis.duplicate(),
      prefix: bed.prefix,
    });
    closers.push(() => events.close());
    await events.waitUntilReady();

    // Start: the catch-up run records the 04:00 slot.
    const first = await startLedgerReconcileWorker(bed.redis, bed.prefix, deps);
    await vi.waitFor(async () => expect(await countRuns()).toBe(1), { timeout: 60_000 });
    // Delivered again within the slot: nothing new.
    const again = await first.queue.add(JOBS.reconcileLedger, {});
    expect(await again.waitUntilFinished(events, 60_000)).toMatchObject({ ranNow: false, ok: true });
    expect(await countRuns()).toBe(1);
    await first.worker.close();
    await first.queue.close();

    // Stopped across two slots: the start-up run records the slot it starts in.
    clock = new Date("2026-11-28T04:40:00Z");
    const second = await startLedgerReconcileWorker(bed.redis, bed.prefix, deps);
    closers.push(async () => {
      await second.worker.close();
      await second.queue.close();
    });
    await vi.waitFor(async () => expect(await countRuns()).toBe(2), { timeout: 60_000 });
    const latest = await latestReconcileRun(bed.db);
    expect(latest?.slot.toISOString()).toBe("2026-11-28T04:30:00.000Z");
    expect(latest?.ok).toBe(true);
    const schedulers = await new Queue(QUEUES.ledgerReconcile, {
      connection: bed.redis,
      prefix: bed.prefix,
    }).getJobSchedulers();
    expect(schedulers.map((s) => s.pattern)).toEqual(["*/15 * * * *"]);
  }, 180_000);
});

describe("the worker's /health, /ready and /metrics", () => {
  it("is ready while its leases reach Redis, and says which lease is stuck when one cannot", async () => {
    const leaseRedis = new Redis(testRedisUrl(), { maxRetriesPerRequest: 1, enableOfflineQueue: false });
    leaseRedis.on("error", () => {});
    const role = runUnderLease(
      leaseRedis,
      `${bed.prefix}:lease:metrics-test-role`,
      () => {},
      1000,
      async () => ({
        stop: async () => {},
      }),
    );
    const http = await startWorkerHttp(
      { db: bed.db, redis: bed.redis, prefix: bed.prefix },
      { port: 0, host: "127.0.0.1" },
    );
    closers.push(
      () => http.close(),
      () => role.close(),
    );
    const base = `http://127.0.0.1:${http.port}`;

    expect((await fetch(`${base}/health`)).status).toBe(200);
    await vi.waitFor(async () => expect((await fetch(`${base}/ready`)).status).toBe(200), { timeout: 5000 });
    const metrics = await (await fetch(`${base}/metrics`)).text();
    expect(metrics).toContain('northstar_worker_lease_held{role="metrics-test-role"} 1');
    expect(metrics).toContain(`northstar_lease_holder{role="metrics-test-role"`);
    expect(metrics).toContain("# TYPE northstar_queue_jobs gauge");

    // The lease's Redis connection goes away: within its TTL the worker says it is not ready.
    leaseRedis.disconnect();
    await vi.waitFor(
      async () => {
        const res = await fetch(`${base}/ready`);
        expect(res.status).toBe(503);
        const body = (await res.json()) as { checks: { name: string; ok: boolean; error?: string }[] };
        expect(body.checks.find((c) => c.name === "leases")?.error).toContain("metrics-test-role");
        expect(body.checks.find((c) => c.name === "postgres")?.ok).toBe(true);
      },
      { timeout: 10_000, interval: 200 },
    );
  }, 90_000);

  it("reports each shard of a sharded role: who holds it, and how many shards there are", async () => {
    // Two shards of a role tried by one process that may hold one: it holds exactly one, and the
    // holders record the count.
    const shards = runShards(
      bed.redis,
      { prefix: bed.prefix, role: "spot-matcher", count: 2, maxShards: 1, ttlMs: 1000, log: () => {} },
      async () => ({ stop: async () => {} }),
    );
    const http = await startWorkerHttp(
      { db: bed.db, redis: bed.redis, prefix: bed.prefix },
      { port: 0, host: "127.0.0.1" },
    );
    closers.push(
      () => http.close(),
      () => shards.close(),
    );
    const base = `http://127.0.0.1:${http.port}`;
    await vi.waitFor(
      async () => {
        const metrics = await (await fetch(`${base}/metrics`)).text();
        const held = ["0", "1"].map((shard) =>
          metrics.includes(`northstar_worker_lease_held{role="spot-matcher",shard="${shard}"} 1`),
        );
        expect(held.filter(Boolean)).toHaveLength(1);
        expect(metrics).toContain(
          `northstar_worker_lease_held{role="spot-matcher",shard="${held[0] ? 1 : 0}"} 0`,
        );
        expect(metrics).toContain(
          `northstar_lease_holder{role="spot-matcher",shard="${held[0] ? 0 : 1}",holder=`,
        );
        expect(metrics).not.toContain(
          `northstar_lease_holder{role="spot-matcher",shard="${held[0] ? 1 : 0}"`,
        );
        expect(metrics).toContain('northstar_lease_shards{role="spot-matcher"} 2');
        expect(metrics).toContain('northstar_lease_shard_count_mismatch{role="spot-matcher"} 0');
      },
      { timeout: 5000, interval: 100 },
    );
  }, 90_000);
});
