import { randomBytes } from "node:crypto";
import { createDb } from "@northstar/domain/db";
import { AppError } from "@northstar/domain/errors";
import { runOnce } from "@northstar/domain/idempotency";
import { createSession } from "@northstar/domain/identity";
import { getUserBalances, latestReconcileRun, postEntry, reconcileLedger } from "@northstar/domain/ledger";
import { runMigrations } from "@northstar/domain/migrate";
import { getPolicy } from "@northstar/domain/policy";
import { seedDatabase } from "@northstar/domain/seed";
import { MoneyDecimal } from "@northstar/shared/money";
import { startLedgerReconcileWorker } from "@northstar/worker/processors";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  type PostgresCluster,
  startPostgresCluster,
  until,
} from "../../../../packages/domain/src/test-support/index.ts";
import { buildApp } from "../app.ts";
import { createHarness, type Harness } from "../test/harness.ts";

/*
 * PostgreSQL restarts under load: a server of this test's own is stopped (fast shutdown, as a restart
 * or failover does) while transfers are in flight, and started again. While it is down the API
 * answers 503 with a translated "try again", never a server fault; every transfer it acknowledged is
 * in the books once; resent with the same Idempotency-Key, the refused ones apply once; the pool and a
 * worker reconnect by themselves; the ledger reconciles exactly.
 */
let h: Harness;
let cluster: PostgresCluster;
let fault: ReturnType<typeof createDb>;
let app: FastifyInstance;
let worker: Awaited<ReturnType<typeof startLedgerReconcileWorker>> | null = null;
let token: string;
let userId: number;

beforeAll(async () => {
  h = await createHarness();
  cluster = await startPostgresCluster();
  const url = cluster.url("northstar");
  await runMigrations(url);
  fault = createDb(url, { max: 5, onConnectionError: () => {} });
  await seedDatabase(fault.db);
  app = await buildApp({ ...h.deps, db: fault.db });
  const uid = String(10_000_000 + Math.floor(Math.random() * 89_999_999));
  const inserted = await fault.pool.query<{ id: number }>(
    `insert into users (uid, kind, status, email, password_hash, nationality, invite_code, nickname)
     values ($1, 'real', 'active', $2, 'not-used', 'GB', $3, $4) returning id`,
    [uid, `restart-${uid}@example.com`, `T${uid}`, `U${uid}`],
  );
  userId = Number(inserted.rows[0]?.id);
  token = await createSession(fault.db, userId);
  // A transfer whose key was claimed just before the server stopped, and whose action then failed,
  // cannot release its claim while the server is down; its process releases it once the server
  // answers. The policy's default says when a claim left by a process that ended is stale: far
  // longer than these tests wait.
  expect(await getPolicy(fault.db, "idempotency.staleSeconds")).toBe(120);
  await postEntry(fault.db, {
    idempotencyKey: `restart-grant:${userId}`,
    kind: "test.grant",
    reference: { type: "test", id: userId },
    postings: [
      { account: { system: "deposit_clearing:test", book: "real", currency: "USDT" }, amount: "-1000" },
      { account: { userId, book: "real", wallet: "exchange", currency: "USDT" }, amount: "1000" },
    ],
  });
}, 120_000);

afterAll(async () => {
  await worker?.worker.close(true);
  await worker?.queue.close();
  await app?.close();
  await fault?.close().catch(() => {});
  await cluster?.destroy();
  await h?.close();
});

/** One transfer of 1 USDT from the exchange wallet to the contract wallet under `key`. */
async function transfer(key: string, lang = "en") {
  const res = await app.inject({
    method: "POST",
    url: "/trpc/transfer.create",
    payload: JSON.stringify({ from: "exchange", to: "contract", currency: "USDT", amount: "1" }),
    headers: {
      authorization: `Bearer ${token}`,
      "idempotency-key": key,
      "content-type": "application/json",
      lang,
    },
  });
  const body = res.json() as { error?: { message: string; data: { errorCode: string } } };
  return { key, status: res.statusCode, error: body.error };
}

const newKey = () => randomBytes(12).toString("base64url");

describe("PostgreSQL restarting under load", () => {
  it("refuses with 'try again' while down, loses nothing acknowledged, and resumes by itself", async () => {
    worker = await startLedgerReconcileWorker(h.redis, `${h.redisPrefix}:restart`, {
      db: fault.db,
      now: () => new Date("2026-11-28T05:00:00Z"),
      log: () => {},
    });
    const results: Awaited<ReturnType<typeof transfer>>[] = [];
    results.push(...(await Promise.all(Array.from({ length: 10 }, () => transfer(newKey())))));
    expect(results.every((r) => r.status === 200)).toBe(true);

    // Twenty transfers in flight as the server goes down.
    const inFlight = Promise.all(Array.from({ length: 20 }, () => transfer(newKey())));
    await cluster.stop("fast");
    results.push(...(await inFlight));

    // Down: refusals in the caller's language with 503, and the process says it is not ready.
    const down = await Promise.all([transfer(newKey()), transfer(newKey(), "zh")]);
    results.push(...down);
    expect(down.map((r) => r.status)).toEqual([503, 503]);
    expect(down[0]?.error?.data.errorCode).toBe("SERVICE_UNAVAILABLE");
    expect(down[0]?.error?.message).toBe("The service is briefly unavailable. Please try again in a moment");
    expect(down[1]?.error?.message).toBe("服务暂时不可用，请稍后再试");
    expect((await app.inject({ method: "GET", url: "/ready" })).statusCode).toBe(503);
    // Whatever was refused was refused as "try again", never as a server fault.
    expect(results.filter((r) => r.status !== 200 && r.status !== 503)).toEqual([]);

    await cluster.start();
    await vi.waitFor(
      async () => expect((await app.inject({ method: "GET", url: "/ready" })).statusCode).toBe(200),
      {
        timeout: 60_000,
      },
    );
    // Every refused transfer resent with its key applies, at once or, if its claim was left behind by
    // the outage, once its process has released it (answering "in progress" until then, never
    // anything else, and well before the claim would be stale); an acknowledged one resent changes
    // nothing.
    const refused = results.filter((r) => r.status !== 200).map((r) => r.key);
    expect(refused.length).toBeGreaterThanOrEqual(2);
    const pending = new Set(refused);
    const answers = new Set<string>();
    await vi.waitFor(
      async () => {
        for (const r of await Promise.all([...pending].map((key) => transfer(key)))) {
          if (r.status === 200) {
            pending.delete(r.key);
          } else {
            answers.add(r.error?.data.errorCode ?? String(r.status));
          }
        }
        expect([...pending]).toEqual([]);
      },
      { timeout: 30_000, interval: 1000 },
    );
    expect([...answers].filter((code) => code !== "REQUEST_IN_PROGRESS")).toEqual([]);
    const acknowledged = results.filter((r) => r.status === 200).map((r) => r.key);
    const again = await Promise.all(acknowledged.slice(0, 5).map((key) => transfer(key)));
    expect(again.every((r) => r.status === 200)).toBe(true);

    // Each distinct key moved 1 USDT exactly once.
    const balances = await getUserBalances(fault.db, userId, "real");
    const contract = balances.find((b) => b.wallet === "contract" && b.currency === "USDT");
    const exchange = balances.find((b) => b.wallet === "exchange" && b.currency === "USDT");
    expect(new MoneyDecimal(contract?.available ?? "0").toFixed()).toBe(String(results.length));
    expect(new MoneyDecimal(exchange?.available ?? "0").toFixed()).toBe(String(1000 - results.length));
    expect((await reconcileLedger(fault.db)).ok).toBe(true);

    // The worker's pool reconnected by itself: a reconciliation job after the restart is recorded.
    await worker.queue.add("reconcile-ledger", {});
    await vi.waitFor(async () => expect((await latestReconcileRun(fault.db))?.ok).toBe(true), {
      timeout: 60_000,
    });
  }, 240_000);

  it("releases the claim of an action the outage failed once the server is back, not when it is stale", async () => {
    const request = { userId, key: newKey(), action: "test.restart", input: { n: 1 } };
    await expect(
      runOnce(fault.db, request, async () => {
        await cluster.stop("fast");
        throw new Error("the server went away");
      }),
    ).rejects.toThrow();
    await cluster.start();
    const seen = new Set<string>();
    const answer = await until(
      () =>
        runOnce(fault.db, request, async () => "applied").catch((error: unknown) => {
          // A connection the restart broke, or the claim not yet released: try again.
          seen.add(error instanceof AppError ? error.code : "connection");
          return null;
        }),
      "the resend to run",
      { timeoutMs: 60_000, intervalMs: 200, context: () => [...seen].join(", ") },
    );
    expect(answer).toBe("applied");
    expect([...seen].filter((code) => code !== "REQUEST_IN_PROGRESS" && code !== "connection")).toEqual([]);
  }, 90_000);
});
