import { once } from "node:events";
import { readFileSync } from "node:fs";
import { connect, createServer, type Server, type Socket } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createDb } from "@northstar/domain/db";
import { SHARDED_ROLES } from "@northstar/domain/leases";
import { runScheduledReconcile } from "@northstar/domain/ledger";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../app.ts";
import { insertUser } from "../test/fixtures.ts";
import { createHarness, type Harness } from "../test/harness.ts";
import { grant } from "../test/money.ts";

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h?.close();
});

/** The value of one sample line, e.g. `northstar_reconcile_last_ok 1`, or undefined when absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe("/metrics", () => {
  it("lists the platform's families in Prometheus' text format", async () => {
    const res = await h.app.inject({ method: "GET", url: "/metrics" });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toContain("text/plain");
    for (const family of [
      "northstar_http_requests_total",
      "northstar_http_request_duration_seconds",
      "northstar_spot_commands_total",
      "northstar_spot_matcher_lag_seconds",
      "northstar_queue_jobs",
      "northstar_queue_oldest_job_age_seconds",
      "northstar_feed_tick_age_seconds",
      "northstar_socket_clients",
      "northstar_socket_send_backlog_bytes",
      "northstar_lease_holder",
      "northstar_ledger_journal_entries_total",
      "northstar_reconcile_last_ok",
      "northstar_reconcile_last_run_timestamp_seconds",
      "process_cpu_seconds_total",
    ]) {
      expect(res.body, family).toContain(`# TYPE ${family} `);
    }
    // Every group could be read: nothing reports its source down.
    expect(res.body).not.toMatch(/northstar_metrics_group_up\{group="\w+"\} 0/);
  });

  it("has every family the shipped dashboard and alert rules query", async () => {
    const root = fileURLToPath(new URL("../../../../", import.meta.url));
    const shipped = ["deploy/alerts.yml", "deploy/grafana-dashboard.json"].map((f) =>
      readFileSync(join(root, f), "utf8"),
    );
    const queried = new Set(
      shipped.flatMap((text) => [...text.matchAll(/\bnorthstar_\w+/g)].map((m) => m[0])),
    );
    expect(queried.size).toBeGreaterThan(10);
    const text = (await h.app.inject({ method: "GET", url: "/metrics" })).body;
    // The worker's own family is checked by the worker's test.
    const workerOnly = new Set(["northstar_worker_lease_held", "northstar_lease_shard_count_mismatch"]);
    for (const name of queried) {
      const family = name.replace(/_bucket$/, "");
      if (!workerOnly.has(family)) {
        expect(text, name).toContain(`# TYPE ${family} `);
      }
    }
  });

  it("pages when a leased role has no holder at all, sharded or not", () => {
    const rules = readFileSync(
      fileURLToPath(new URL("../../../../deploy/alerts.yml", import.meta.url)),
      "utf8",
    );
    // With every shard gone there is no series to count shards by; only absent() sees it.
    for (const role of [...SHARDED_ROLES, "market-feed"]) {
      expect(rules, role).toContain(`absent(northstar_lease_holder{role="${role}"})`);
    }
  });

  it("counts requests under their route pattern, never under an invented path", async () => {
    await h.app.inject({ method: "GET", url: "/health" });
    await h.app.inject({ method: "GET", url: "/trpc/no.such.procedure" });
    const text = (await h.app.inject({ method: "GET", url: "/metrics" })).body;
    expect(sample(text, 'northstar_http_requests_total{method="GET",route="/health",status="200"}')).toBe(1);
    expect(text).not.toContain("no.such.procedure");
  });

  it("reports the last scheduled reconciliation and the journal's growth", async () => {
    const before = await h.app.inject({ method: "GET", url: "/metrics" });
    expect(sample(before.body, "northstar_reconcile_last_ok")).toBe(-1);
    const journal = sample(before.body, "northstar_ledger_journal_entries_total") ?? Number.NaN;
    expect(journal).toBeGreaterThanOrEqual(0);

    const slot = new Date("2026-11-28T04:00:00Z");
    const first = await runScheduledReconcile(h.db, slot);
    const again = await runScheduledReconcile(h.db, slot);
    expect(first.ranNow).toBe(true);
    expect(again.ranNow).toBe(false);
    expect(first.run.ok).toBe(true);

    // Two credits are two journal entries, whichever process wrote them.
    const userId = await insertUser(h, { passwordHash: "not-used" });
    await grant(h, userId, "10");
    await grant(h, userId, "5");
    const after = (await h.app.inject({ method: "GET", url: "/metrics" })).body;
    expect(sample(after, "northstar_reconcile_last_ok")).toBe(1);
    expect(sample(after, "northstar_reconcile_last_problems")).toBe(0);
    expect(sample(after, "northstar_reconcile_last_run_timestamp_seconds")).toBe(slot.getTime() / 1000);
    expect(sample(after, "northstar_ledger_journal_entries_total")).toBe(journal + 2);
  });

  it("answers only the bearer token when one is configured", async () => {
    const app = await buildApp({
      ...h.deps,
      config: { ...h.deps.config, metricsToken: "a-long-metrics-token-for-tests" },
    });
    try {
      expect((await app.inject({ method: "GET", url: "/metrics" })).statusCode).toBe(401);
      const wrong = { authorization: "Bearer not-the-token-at-all" };
      expect((await app.inject({ method: "GET", url: "/metrics", headers: wrong })).statusCode).toBe(401);
      const right = { authorization: "Bearer a-long-metrics-token-for-tests" };
      const ok = await app.inject({ method: "GET", url: "/metrics", headers: right });
      expect(ok.statusCode).toBe(200);
      expect(ok.body).toContain("# TYPE northstar_queue_jobs ");
    } finally {
      await app.close();
    }
  });
});

/**
 * A TCP relay in front of the real PostgreSQL: closing it (and its open connections) is PostgreSQL
 * going away for whatever connects through it, without stopping the server other tests share.
 */
async function startRelay(target: { host: string; port: number }) {
  const sockets = new Set<Socket>();
  let server: Server | null = null;
  const port = await new Promise<number>((resolve) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
  const open = async () => {
    server = createServer((client) => {
      const upstream = connect(target.port, target.host);
      sockets.add(client).add(upstream);
      client.pipe(upstream).pipe(client);
      const drop = () => {
        client.destroy();
        upstream.destroy();
        sockets.delete(client);
        sockets.delete(upstream);
      };
      client.on("error", drop).on("close", drop);
      upstream.on("error", drop).on("close", drop);
    });
    server.listen(port, "127.0.0.1");
    await once(server, "listening");
  };
  const shut = async () => {
    for (const socket of sockets) {
      socket.destroy();
    }
    sockets.clear();
    const closing = server;
    server = null;
    if (closing) {
      await new Promise((resolve) => closing.close(resolve));
    }
  };
  await open();
  return { port, open, shut };
}

describe("/ready", () => {
  it("says no while PostgreSQL cannot be reached and yes again when it can", async () => {
    const url = new URL(h.databaseUrl);
    const relay = await startRelay({ host: url.hostname, port: Number(url.port || 5432) });
    url.hostname = "127.0.0.1";
    url.port = String(relay.port);
    const relayed = createDb(url.toString(), { max: 2 });
    relayed.pool.on("error", () => {});
    const app = await buildApp({ ...h.deps, db: relayed.db });
    try {
      const up = await app.inject({ method: "GET", url: "/ready" });
      expect(up.statusCode).toBe(200);
      expect(up.json()).toMatchObject({ ok: true });

      await relay.shut();
      const down = await app.inject({ method: "GET", url: "/ready" });
      expect(down.statusCode).toBe(503);
      const body = down.json() as { ok: boolean; checks: { name: string; ok: boolean }[] };
      expect(body.ok).toBe(false);
      expect(body.checks.find((c) => c.name === "postgres")?.ok).toBe(false);
      expect(body.checks.find((c) => c.name === "redis")?.ok).toBe(true);
      // The process itself lives: the load balancer's liveness check still passes.
      expect((await app.inject({ method: "GET", url: "/health" })).statusCode).toBe(200);
      // A scrape while the database is gone still answers, with the groups it could not read marked.
      const scrape = await app.inject({ method: "GET", url: "/metrics" });
      expect(scrape.statusCode).toBe(200);
      expect(scrape.body).toContain('northstar_metrics_group_up{group="ledger"} 0');

      await relay.open();
      const back = await app.inject({ method: "GET", url: "/ready" });
      expect(back.statusCode).toBe(200);
    } finally {
      await app.close();
      await relay.shut();
      await relayed.close().catch(() => {});
    }
  }, 90_000);
});
