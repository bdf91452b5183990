import { createServer, type Server } from "node:http";
import type { Db } from "@northstar/domain/db";
import { leaseRole } from "@northstar/domain/leases";
import { checkReadiness, type ReadinessCheck, registerPlatformMetrics } from "@northstar/domain/metrics";
import type { Redis } from "ioredis";
import { collectDefaultMetrics, Gauge, Registry } from "prom-client";
import { leaseStatuses, shardedRoleStatuses } from "./leased.ts";

export interface WorkerHttpDeps {
  db: Db;
  redis: Redis;
  prefix: string;
  /** When set, `/metrics` answers only `Authorization: Bearer <token>`. */
  metricsToken?: string;
  now?: () => number;
}

/**
 * Whether every role lease this worker runs has reached Redis within its TTL: a worker whose lease
 * loop cannot reach Redis holds nothing, and a standby it was meant to be is no standby. A worker
 * that holds no shard because workers with another shard count hold the role is a healthy standby
 * (it takes the shards once they stop), so it stays ready; `northstar_lease_shard_count_mismatch`
 * says why it serves nothing.
 */
export function leaseReadiness(now: number): ReadinessCheck {
  const stale = leaseStatuses().filter((l) => now - l.lastReachedAt > l.ttlMs);
  return stale.length === 0
    ? { name: "leases", ok: true }
    : {
        name: "leases",
        ok: false,
        error: `not renewed within their TTL: ${stale.map((l) => l.key).join(", ")}`,
      };
}

/** The worker's `/health`, `/ready` and `/metrics`, on a port of its own (it serves no other HTTP). */
export async function startWorkerHttp(
  deps: WorkerHttpDeps,
  listen: { port: number; host: string },
): Promise<{ server: Server; port: number; close(): Promise<void> }> {
  const now = deps.now ?? Date.now;
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const platform = registerPlatformMetrics(registry, {
    db: deps.db,
    redis: deps.redis,
    prefix: deps.prefix,
    now,
  });
  new Gauge({
    name: "northstar_worker_lease_held",
    help: "1 for each role lease (each shard of a sharded role) this worker holds, 0 for each it stands by for.",
    labelNames: ["role", "shard"],
    registers: [registry],
    collect() {
      this.reset();
      for (const lease of leaseStatuses()) {
        const { role, shard } = leaseRole(
          lease.key.slice(lease.key.lastIndexOf(":lease:") + ":lease:".length),
        );
        this.set(shard ? { role, shard } : { role }, lease.held ? 1 : 0);
      }
    },
  });

  new Gauge({
    name: "northstar_lease_shard_count_mismatch",
    help: "1 for each sharded role this worker stands by for because workers with another shard count hold it, else 0.",
    labelNames: ["role"],
    registers: [registry],
    collect() {
      this.reset();
      const standing = new Map<string, number>();
      for (const { role, otherCount } of shardedRoleStatuses()) {
        standing.set(role, Math.max(standing.get(role) ?? 0, otherCount === null ? 0 : 1));
      }
      for (const [role, value] of standing) {
        this.set({ role }, value);
      }
    },
  });

  const server = createServer((request, response) => {
    const path = (request.url ?? "").split("?")[0];
    const send = (status: number, type: string, body: string) => {
      response.writeHead(status, { "content-type": type, "cache-control": "no-store" });
      response.end(body);
    };
    void (async () => {
      if (request.method !== "GET" && request.method !== "HEAD") {
        return send(405, "application/json", JSON.stringify({ ok: false }));
      }
      if (path === "/health") {
        return send(200, "application/json", JSON.stringify({ ok: true }));
      }
      if (path === "/ready") {
        const checks = [...(await checkReadiness(deps)), leaseReadiness(now())];
        const ok = checks.every((c) => c.ok);
        return send(ok ? 200 : 503, "application/json", JSON.stringify({ ok, checks }));
      }
      if (path === "/metrics") {
        if (deps.metricsToken && request.headers.authorization !== `Bearer ${deps.metricsToken}`) {
          return send(401, "application/json", JSON.stringify({ ok: false }));
        }
        return send(200, registry.contentType, await registry.metrics());
      }
      return send(404, "application/json", JSON.stringify({ ok: false }));
    })().catch(() => send(500, "application/json", JSON.stringify({ ok: false })));
  });
  server.listen(listen.port, listen.host);
  await new Promise<void>((resolve, reject) => {
    server.once("listening", resolve);
    server.once("error", reject);
  });
  const address = server.address();
  return {
    server,
    port: typeof address === "object" && address ? address.port : listen.port,
    async close() {
      await new Promise((resolve) => server.close(resolve));
      await platform.close();
    },
  };
}
