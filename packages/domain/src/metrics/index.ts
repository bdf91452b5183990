import { QUEUES } from "@northstar/shared/jobs";
import { Queue } from "bullmq";
import { sql } from "drizzle-orm";
import type { Redis } from "ioredis";
import { Counter, Gauge, type Registry } from "prom-client";
import type { Db } from "../db/client.ts";
import { leaseRole, SHARDED_ROLES, shardCountKey } from "../leases/index.ts";
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
  leases?: { role: string; shard: string; holder: string }[];
  /** Each sharded role's shard count, as its lease holders record it (absent while none holds a shard). */
  shards?: { role: string; count: number }[];
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
          return holder ? [{ ...leaseRole(key.slice(`${deps.prefix}:lease:`.length)), holder }] : [];
        });
        const roles = SHARDED_ROLES.map((role) => shardCountKey(deps.prefix, role));
        const counts = await deps.redis.mget(...roles);
        snapshot.shards = SHARDED_ROLES.flatMap((role, i) =>
          counts[i] ? [{ role, count: Number(counts[i]) }] : [],
        );
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

  /**
   * One family whose samples are read from the scrape's snapshot. A counter's value is the running
   * total the snapshot read (it is set, not incremented, as any process may answer the scrape).
   */
  const family = (
    kind: "gauge" | "counter",
    name: string,
    help: string,
    labelNames: string[],
    samples: (snapshot: Snapshot) => [Record<string, string>, number][],
  ) => {
    const Metric = kind === "gauge" ? Gauge : Counter;
    new Metric({
      name,
      help,
      labelNames,
      registers,
      async collect() {
        const rows = samples(await current());
        this.reset();
        for (const [labels, value] of rows) {
          if (this instanceof Gauge) {
            this.set(labels, value);
          } else {
            this.inc(labels, value);
          }
        }
      },
    });
  };

  family(
    "gauge",
    "northstar_metrics_group_up",
    "1 when the metric group could be read at this scrape, 0 when its source failed.",
    ["group"],
    (s) => [...s.up].map(([group, ok]) => [{ group }, ok ? 1 : 0]),
  );
  family(
    "counter",
    "northstar_ledger_journal_entries_total",
    "Journal entries written to the ledger (each balance change is one); rate() gives postings per second.",
    [],
    (s) => (s.journalEntries === undefined ? [] : [[{}, s.journalEntries]]),
  );
  family(
    "gauge",
    "northstar_reconcile_last_ok",
    "1 when the last scheduled reconciliation found the books exact, 0 when it found a problem, -1 before the first.",
    [],
    (s) => [[{}, s.reconcile ? (s.reconcile.ok ? 1 : 0) : -1]],
  );
  family(
    "gauge",
    "northstar_reconcile_last_problems",
    "Problems the last scheduled reconciliation found.",
    [],
    (s) => [[{}, s.reconcile?.problems ?? 0]],
  );
  family(
    "gauge",
    "northstar_reconcile_last_run_timestamp_seconds",
    "When the last scheduled reconciliation's slot started (Unix seconds; 0 before the first).",
    [],
    (s) => [[{}, s.reconcile ? s.reconcile.slot.getTime() / 1000 : 0]],
  );
  family(
    "counter",
    "northstar_spot_commands_total",
    "Commands appended to each market's matcher stream (orders placed and cancelled, market-maker ladders).",
    ["market"],
    (s) => (s.lags ?? []).map((lag) => [{ market: lag.symbol }, lag.commandsAdded]),
  );
  family(
    "gauge",
    "northstar_spot_matcher_lag_seconds",
    "How long the oldest command the matcher has not committed has waited, per market.",
    ["market"],
    (s) => (s.lags ?? []).map((lag) => [{ market: lag.symbol }, lag.lagSeconds]),
  );
  family("gauge", "northstar_queue_jobs", "Jobs in each BullMQ queue, by state.", ["queue", "state"], (s) =>
    (s.queues ?? []).flatMap((row) =>
      JOB_STATES.map(
        (state) => [{ queue: row.name, state }, row.counts[state] ?? 0] as [Record<string, string>, number],
      ),
    ),
  );
  family(
    "gauge",
    "northstar_queue_oldest_job_age_seconds",
    "Age of the oldest job waiting in each queue, or how long the most overdue delayed job is past its time.",
    ["queue"],
    (s) => (s.queues ?? []).map((row) => [{ queue: row.name }, row.ageSeconds]),
  );
  family(
    "gauge",
    "northstar_feed_tick_age_seconds",
    "Seconds since each market's last price, labelled with the feed that serves it.",
    ["market", "source"],
    (s) => (s.ticks ?? []).map((tick) => [{ market: tick.symbol, source: tick.source }, tick.ageSeconds]),
  );
  family(
    "gauge",
    "northstar_market_open",
    "1 while the market is inside its trading hours (tick age matters only then).",
    ["market"],
    (s) => (s.ticks ?? []).map((tick) => [{ market: tick.symbol }, tick.open ? 1 : 0]),
  );
  family(
    "gauge",
    "northstar_lease_holder",
    "1 for each leased role (each shard of a sharded role) that has a holder now, labelled with the holder's token; absent when nobody holds it.",
    ["role", "shard", "holder"],
    (s) =>
      (s.leases ?? []).map(({ role, shard, holder }): [Record<string, string>, number] => [
        shard ? { role, shard, holder } : { role, holder },
        1,
      ]),
  );
  family(
    "gauge",
    "northstar_lease_shards",
    "How many shards a sharded role (spot-matcher, contract-risk) is split over, as its lease holders record it; each shard should have a holder.",
    ["role"],
    (s) => (s.shards ?? []).map(({ role, count }) => [{ role }, count]),
  );

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
