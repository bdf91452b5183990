import { Lease, type LeaseOptions } from "@northstar/domain/leases";
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
export function leaseBudget(max: number | undefined): LeaseOptions["budget"] {
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
    onAttempt: (held, reached) => {
      status.held = held;
      if (reached) {
        status.lastReachedAt = Date.now();
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
