import { checkReadiness, registerPlatformMetrics } from "@northstar/domain/metrics";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import type { SocketStats } from "../realtime/socket-types.ts";
import { appRouter } from "../trpc/router.ts";
import type { AppDeps } from "./deps.ts";

const PROCEDURES = new Set(Object.keys(appRouter._def.procedures));

/**
 * The route a request is counted under: Fastify's route pattern, and for tRPC the procedure when the
 * call names one the router has (a batch, or a name the router does not know, counts as one label,
 * so that nobody can grow the label set by inventing paths).
 */
function routeLabel(request: FastifyRequest): string {
  const route = request.routeOptions.url;
  if (!route) {
    return "(unmatched)";
  }
  if (route.startsWith("/trpc/")) {
    const path = (request.params as { path?: string } | undefined)?.path ?? "";
    return PROCEDURES.has(path) ? `/trpc/${path}` : "/trpc/(batch)";
  }
  return route;
}

/**
 * `/metrics` (Prometheus text format; with `METRICS_TOKEN` set, only for `Authorization: Bearer
 * <token>`), `/ready` (PostgreSQL and Redis answer) beside the existing `/health` (the process lives).
 */
export function registerObservability(
  app: FastifyInstance,
  deps: AppDeps,
  socketStats: () => SocketStats | null,
): void {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const platform = registerPlatformMetrics(registry, {
    db: deps.db,
    redis: deps.redis,
    prefix: deps.config.redisPrefix,
  });
  app.addHook("onClose", () => platform.close());

  const requests = new Counter({
    name: "northstar_http_requests_total",
    help: "HTTP requests answered, by method, route and status code.",
    labelNames: ["method", "route", "status"],
    registers: [registry],
  });
  const duration = new Histogram({
    name: "northstar_http_request_duration_seconds",
    help: "Time from receiving a request to sending its answer, by method and route.",
    labelNames: ["method", "route"],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  new Gauge({
    name: "northstar_socket_clients",
    help: "Market-socket clients connected to this process.",
    registers: [registry],
    collect() {
      this.set(socketStats()?.clients ?? 0);
    },
  });
  new Gauge({
    name: "northstar_socket_send_backlog_bytes",
    help: "Bytes queued for this process's market-socket clients and not yet written to their sockets.",
    registers: [registry],
    collect() {
      this.set(socketStats()?.backlogBytes ?? 0);
    },
  });

  app.addHook("onResponse", async (request, reply) => {
    const route = routeLabel(request);
    requests.inc({ method: request.method, route, status: String(reply.statusCode) });
    duration.observe({ method: request.method, route }, reply.elapsedTime / 1000);
  });

  const token = deps.config.metricsToken;
  app.get("/metrics", async (request, reply) => {
    if (token && request.headers.authorization !== `Bearer ${token}`) {
      return reply.status(401).send({ code: 401, message: "unauthorized", data: null });
    }
    return reply.type(registry.contentType).send(await registry.metrics());
  });
  app.get("/ready", { exposeHeadRoute: true }, async (_request, reply) => {
    const checks = await checkReadiness(deps);
    const ok = checks.every((c) => c.ok);
    return reply.status(ok ? 200 : 503).send({ ok, checks });
  });
}
