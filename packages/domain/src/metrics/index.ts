import { QUEUES } from "@northstar/shared/jobs";
import { Queue } from "bullmq";
import { sql } from "drizzle-orm";
import type { Redis } from "ioredis";
import { Counter, Gauge, type Registry } from "prom-client";
import type { Db } from "../db/client.ts";
import { journalEntriesWritten, latestReconcileRun } from "../ledger/index.ts";
import { readTickers, runningFeed } from "../markets/index.ts";
import { type MarketCommandLag, matcherLag } from "../spot/index.ts";

/**
 * The platform's own gauges, read at scrape time from PostgreSQL and Redis, so every API and worker
 * process answers the same figures and none of them has to be the one that saw an event: the ledger's
 * postings, the last reconciliation, order intake and matcher lag per market, BullMQ queue depth and
 * the age of the oldest waiting job, each market's tick age, and the leases' holders. Each group is
 * read on its own; a group that cannot be read reports `northstar_metrics_group_up{group} 0` instead
 * of failing the whole scrape (a scrape is how an operator notices the database has gone).
 */
export interface PlatformMetricsDeps {
  db: Db;
  redis: Redis;
  prefix: string;
  now?: () => number;
}

const GROUP_TIMEOUT_MS = 3000;
const JOB_STATES = ["waiting", "active", "delayed", "failed", "prioritized", "waiting-children"] as const;

interface Snapshot {
  up: Map<string, boolean>;
  journalEntries?: number;
  reconcile?: Awaited<ReturnType<typeof latestReconcileRun>>;
  lags?: MarketCommandLag[];
  queues?: { name: string; counts: Record<string, number>; ageSeconds: number }[];
  ticks?: { symbol: string; source: string; ageSeconds: number; open: boolean }[];
  leases?: { role: string; holder: string }[];
}

export function registerPlatformMetrics(
  registry: Registry,
  deps: PlatformMetricsDeps,
): { close(): Promise<void> } {
  const now = deps.now ?? Date.now;
  const registers = [registry];
  const queues = Object.values(QUEUES).map(
    (name) => new Queue(name, { connection: deps.redis, prefix: deps.prefix }),
  );

  /** Reads every group once per scrape: the registry collects all metrics at once, and they share it. */
  const read = async (): Promise<Snapshot> => {
    const snapshot: Snapshot = { up: new Map() };
    const group = async (name: string, load: () => Promise<void>) => {
      try {
        // A source that hangs must not hang the scrape: Prometheus would see nothing at all.
        await within(GROUP_TIMEOUT_MS, load());
        snapshot.up.set(name, true);
      } catch {
        snapshot.up.set(name, false);
      }
    };
    const at = now();
    await Promise.all([
      group("ledger", async () => {
        snapshot.journalEntries = await journalEntriesWritten(deps.db);
      }),
      group("reconcile", async () => {
        snapshot.reconcile = await latestReconcileRun(deps.db);
      }),
      group("spot", async () => {
        snapshot.lags = await matcherLag(deps.db, deps.redis, deps.prefix, at);
      }),
      group("queues", async () => {
        snapshot.queues = await Promise.all(
          queues.map(async (queue) => {
            const [counts, [waiting], [delayed]] = await Promise.all([
              queue.getJobCounts(...JOB_STATES),
              queue.getJobs(["waiting"], 0, 0, true),
              queue.getJobs(["delayed"], 0, 0, true),
            ]);
            const waited = waiting ? at - waiting.timestamp : 0;
            const overdue = delayed ? at - (delayed.timestamp + (delayed.opts.delay ?? 0)) : 0;
            return { name: queue.name, counts, ageSeconds: Math.max(0, waited, overdue) / 1000 };
          }),
        );
      }),
      group("feed", async () => {
        const [tickers, feed] = await Promise.all([
          readTickers(deps.redis, deps.prefix),
          runningFeed(deps.db),
        ]);
        snapshot.ticks = [...tickers.values()]
          .sort((a, b) => a.s.localeCompare(b.s))
          .map((t) => ({
            symbol: t.s,
            source: feed.kind ?? "none",
            ageSeconds: Math.max(0, at - t.t) / 1000,
            open: t.x,
          }));
      }),
      group("leases", async () => {
        const keys: string[] = [];
        let cursor = "0";
        do {
          const [next, batch] = await deps.redis.scan(
            cursor,
            "MATCH",
            `${deps.prefix}:lease:*`,
            "COUNT",
            200,
          );
          cursor = next;
          keys.push(...batch);
        } while (cursor !== "0");
        keys.sort();
        const holders = keys.length > 0 ? await deps.redis.mget(...keys) : [];
        snapshot.leases = keys.flatMap((key, i) => {
          const holder = holders[i];
          return holder ? [{ role: key.slice(`${deps.prefix}:lease:`.length), holder }] : [];
        });
      }),
    ]);
    return snapshot;
  };
  let pending: Promise<Snapshot> | null = null;
  const current = () => {
    if (!pending) {
      pending = read();
      // Settled: the next scrape reads afresh.
      void pending.finally(() => {
        pending = null;
      });
    }
    return pending;
  };

  new Gauge({
    name: "northstar_metrics_group_up",
    help: "1 when the metric group could be read at this scrape, 0 when its source failed.",
    labelNames: ["group"],
    registers,
    async collect() {
      const { up } = await current();
      this.reset();
      for (const [group, ok] of up) {
        this.set({ group }, ok ? 1 : 0);
      }
    },
  });

  new Counter({
    name: "northstar_ledger_journal_entries_total",
    help: "Journal entries written to the ledger (each balance change is one); rate() gives postings per second.",
    registers,
    async collect() {
      const { journalEntries } = await current();
      this.reset();
      if (journalEntries !== undefined) {
        this.inc(journalEntries);
      }
    },
  });

  new Gauge({
    name: "northstar_reconcile_last_ok",
    help: "1 when the last scheduled reconciliation found the books exact, 0 when it found a problem, -1 before the first.",
    registers,
    async collect() {
      const { reconcile } = await current();
      this.set(reconcile ? (reconcile.ok ? 1 : 0) : -1);
    },
  });
  new Gauge({
    name: "northstar_reconcile_last_problems",
    help: "Problems the last scheduled reconciliation found.",
    registers,
    async collect() {
      const { reconcile } = await current();
      this.set(reconcile?.problems ?? 0);
    },
  });
  new Gauge({
    name: "northstar_reconcile_last_run_timestamp_seconds",
    help: "When the last scheduled reconciliation's slot started (Unix seconds; 0 before the first).",
    registers,
    async collect() {
      const { reconcile } = await current();
      this.set(reconcile ? reconcile.slot.getTime() / 1000 : 0);
    },
  });

  new Counter({
    name: "northstar_spot_commands_total",
    help: "Commands appended to each market's matcher stream (orders placed and cancelled, market-maker ladders).",
    labelNames: ["market"],
    registers,
    async collect() {
      const { lags } = await current();
      this.reset();
      for (const lag of lags ?? []) {
        this.inc({ market: lag.symbol }, lag.commandsAdded);
      }
    },
  });
  new Gauge({
    name: "northstar_spot_matcher_lag_seconds",
    help: "How long the oldest command the matcher has not committed has waited, per market.",
    labelNames: ["market"],
    registers,
    async collect() {
      const { lags } = await current();
      this.reset();
      for (const lag of lags ?? []) {
        this.set({ market: lag.symbol }, lag.lagSeconds);
      }
    },
  });

  new Gauge({
    name: "northstar_queue_jobs",
    help: "Jobs in each BullMQ queue, by state.",
    labelNames: ["queue", "state"],
    registers,
    async collect() {
      const snapshot = await current();
      this.reset();
      for (const row of snapshot.queues ?? []) {
        for (const state of JOB_STATES) {
          this.set({ queue: row.name, state }, row.counts[state] ?? 0);
        }
      }
    },
  });
  new Gauge({
    name: "northstar_queue_oldest_job_age_seconds",
    help: "Age of the oldest job waiting in each queue, or how long the most overdue delayed job is past its time.",
    labelNames: ["queue"],
    registers,
    async collect() {
      const snapshot = await current();
      this.reset();
      for (const row of snapshot.queues ?? []) {
        this.set({ queue: row.name }, row.ageSeconds);
      }
    },
  });

  new Gauge({
    name: "northstar_feed_tick_age_seconds",
    help: "Seconds since each market's last price, labelled with the feed that serves it.",
    labelNames: ["market", "source"],
    registers,
    async collect() {
      const { ticks } = await current();
      this.reset();
      for (const tick of ticks ?? []) {
        this.set({ market: tick.symbol, source: tick.source }, tick.ageSeconds);
      }
    },
  });
  new Gauge({
    name: "northstar_market_open",
    help: "1 while the market is inside its trading hours (tick age matters only then).",
    labelNames: ["market"],
    registers,
    async collect() {
      const { ticks } = await current();
      this.reset();
      for (const tick of ticks ?? []) {
        this.set({ market: tick.symbol }, tick.open ? 1 : 0);
      }
    },
  });

  new Gauge({
    name: "northstar_lease_holder",
    help: "1 for each leased role that has a holder now, labelled with the holder's token; absent when nobody holds it.",
    labelNames: ["role", "holder"],
    registers,
    async collect() {
      const { leases } = await current();
      this.reset();
      for (const lease of leases ?? []) {
        this.set(lease, 1);
      }
    },
  });

  return {
    async close() {
      await Promise.all(queues.map((q) => q.close()));
    },
  };
}

export interface ReadinessCheck {
  name: string;
  ok: boolean;
  /** Why it failed (the error's message), absent when ok. */
  error?: string;
}

/** Rejects after `ms`: a database that does not answer is as unready as one that refuses. */
const within = <T>(ms: number, work: Promise<T>) =>
  Promise.race([
    work,
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms).unref(),
    ),
  ]);

/**
 * Whether this process can serve: PostgreSQL answers a query and Redis answers PING, each within
 * `timeoutMs`. A load balancer stops sending to a process whose `/ready` says no.
 */
export async function checkReadiness(
  deps: { db: Db; redis: Redis },
  timeoutMs = 2000,
): Promise<ReadinessCheck[]> {
  const run = async (name: string, probe: () => Promise<unknown>): Promise<ReadinessCheck> => {
    try {
      await within(timeoutMs, probe());
      return { name, ok: true };
    } catch (error) {
      return { name, ok: false, error: error instanceof Error ? error.message : String(error) };
    }
  };
  return Promise.all([
    run("postgres", () => deps.db.execute(sql`select 1`)),
    run("redis", () => deps.redis.ping()),
  ]);
}
