import {
  Lease,
  type LeaseOptions,
  type ShardLease,
  shardCountKey,
  shardLeaseKey,
} from "@northstar/domain/leases";
import type { Redis } from "ioredis";

/** Each role lease this process runs: whether it holds it, and when it last reached Redis about it. */
export interface LeaseStatus {
  key: string;
  held: boolean;
  /** ms since the epoch of the last try to take or renew it that Redis answered (0 before the first). */
  lastReachedAt: number;
  ttlMs: number;
}
const leases = new Map<string, LeaseStatus>();

/**
 * How many leases of one kind (a sharded role's shards) this process may hold at once; unlimited
 * without a maximum. A place is taken once a lease is won (a lease won beyond the maximum is given
 * back at once), so leases tried together cannot pass it and a failed try blocks no other.
 */
function leaseBudget(max: number | undefined): LeaseOptions["budget"] {
  if (!max) {
    return undefined;
  }
  let taken = 0;
  return {
    available: () => taken < max,
    reserve: () => {
      if (taken >= max) {
        return false;
      }
      taken++;
      return true;
    },
    release: () => {
      taken = Math.max(0, taken - 1);
    },
  };
}

/** The leases of this process, for its `/ready` and `/metrics`. */
export function leaseStatuses(): LeaseStatus[] {
  return [...leases.values()].sort((a, b) => a.key.localeCompare(b.key));
}

/**
 * Runs a role in exactly one worker: the holder of the role's Redis lease. Other workers wait as
 * standbys and take over within a few seconds if the holder stops renewing. Start and stop run one
 * after the other, so a lease lost during a slow start stops what started.
 */
export function runUnderLease(
  redis: Redis,
  key: string,
  log: (line: string) => void,
  ttlMs: number,
  start: () => Promise<{ stop(): Promise<void> }>,
  budget?: LeaseOptions["budget"],
  shard?: ShardLease & { onOtherCount(count: number | null): void },
): { close(): Promise<void> } {
  let running: { stop(): Promise<void> } | null = null;
  const status: LeaseStatus = { key, held: false, lastReachedAt: 0, ttlMs };
  leases.set(key, status);
  let transition: Promise<void> = Promise.resolve();
  const serially = (work: () => Promise<void>) => {
    transition = transition.then(work, work);
    return transition;
  };
  const lease = new Lease(redis, key, {
    log,
    ttlMs,
    ...(budget ? { budget } : {}),
    ...(shard ? { shard } : {}),
    // Renewed five times per life, so one slow renewal never loses the lease.
    intervalMs: Math.max(200, Math.floor(ttlMs / 5)),
    onAcquired: () =>
      serially(async () => {
        running = await start();
      }),
    onLost: () =>
      serially(async () => {
        await running?.stop();
        running = null;
      }),
    onAttempt: (held, reached, otherCount) => {
      status.held = held;
      if (reached) {
        // A try refused because another shard count holds the role reached Redis too: such a worker
        // is a healthy standby, and its `/ready` stays ready.
        status.lastReachedAt = Date.now();
        shard?.onOtherCount(otherCount ?? null);
      }
    },
  });
  void lease.start();
  return {
    close: async () => {
      await lease.stop();
      leases.delete(key);
    },
  };
}

/** A sharded role this process runs: its shard count, and the other count it stands by for, if any. */
export interface ShardedRoleStatus {
  role: string;
  count: number;
  /** The shard count the role's shards are held under by other workers, while this one waits for them. */
  otherCount: number | null;
}
const shardedRoles = new Set<ShardedRoleStatus>();

/** The sharded roles of this process, for its `/metrics`. */
export function shardedRoleStatuses(): ShardedRoleStatus[] {
  return [...shardedRoles].sort((a, b) => a.role.localeCompare(b.role));
}

/**
 * Runs a sharded role: shard `i` (0 … count − 1) runs `start(i)` under its own lease
 * (`shardLeaseKey`), at most `maxShards` of them in this process. While the role's shards are held
 * by workers with another shard count, this process takes none (see `ShardLease`) and says so once.
 */
export function runShards(
  redis: Redis,
  options: {
    prefix: string;
    role: string;
    count: number;
    maxShards?: number | undefined;
    ttlMs: number;
    log: (line: string) => void;
  },
  start: (index: number) => Promise<{ stop(): Promise<void> }>,
): { close(): Promise<void> } {
  const { prefix, role, count, log } = options;
  const budget = leaseBudget(options.maxShards);
  const keys = Array.from({ length: count }, (_, index) => shardLeaseKey(prefix, role, index));
  const status: ShardedRoleStatus = { role, count, otherCount: null };
  shardedRoles.add(status);
  // Every shard's tries tell; the log speaks only when the answer changes, not at each retry.
  const onOtherCount = (other: number | null) => {
    if (other !== status.otherCount) {
      log(
        other === null
          ? `${role}: the workers with ${status.otherCount} shards are gone; taking shards of ${count}`
          : `${role}: standing by: its shards are held by workers with ${other} shards, this one has ${count}; it takes them once those stop`,
      );
      status.otherCount = other;
    }
  };
  const shard = { count, countKey: shardCountKey(prefix, role), keys, onOtherCount };
  const shards = keys.map((key, index) =>
    runUnderLease(redis, key, log, options.ttlMs, () => start(index), budget, shard),
  );
  return {
    async close() {
      await Promise.all(shards.map((s) => s.close()));
      shardedRoles.delete(status);
    },
  };
}
