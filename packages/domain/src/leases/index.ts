import { createHash, randomUUID } from "node:crypto";
import type { Redis } from "ioredis";

/**
 * A Redis lease: one holder at a time for a named role (the market feed, a market's matcher).
 * The holder renews it well before it expires; if the holder dies, the lease lapses and a standby
 * that keeps trying takes over. Renew and release only succeed for the holder's own token.
 */
const RENEW = `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("pexpire", KEYS[1], ARGV[2]) else return 0 end`;
const RELEASE = `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`;

export interface LeaseOptions {
  ttlMs?: number;
  /** How often the holder renews and a standby retries. */
  intervalMs?: number;
  onAcquired: () => Promise<void> | void;
  /** Called when the lease is lost (renewal failed): the holder must stop acting at once. */
  onLost: () => Promise<void> | void;
  log?: (line: string) => void;
  /**
   * After each try to take or renew the lease, with whether it is held now and whether Redis answered
   * the try (for health checks).
   */
  onAttempt?: (held: boolean, reached: boolean) => void;
  /**
   * A limit on leases of one kind held by this process: `available` is asked before each try to
   * take the lease (false skips it); a lease taken then `reserve`s a place, and gives the lease back
   * at once when a sibling took the last place meanwhile; `release` frees the place when the lease
   * is lost or given up. Siblings never hold a place for a try that fails, so none starves another.
   */
  budget?: { available(): boolean; reserve(): boolean; release(): void };
}

/**
 * The shard (0 … count − 1) a name (a market's symbol) belongs to: the first four bytes of its
 * SHA-256 as an unsigned integer, modulo the shard count. It depends only on the name and the
 * count, so every process agrees on it without asking anyone, and a market added later lands in
 * its shard at once.
 */
export function shardOf(name: string, count: number): number {
  if (!Number.isInteger(count) || count < 1) {
    throw new Error(`shard count must be a positive integer, got ${count}`);
  }
  return count === 1 ? 0 : createHash("sha256").update(name).digest().readUInt32BE(0) % count;
}

/** The key of shard `index` of a sharded role's lease: `<prefix>:lease:<role>:<index>`. */
export const shardLeaseKey = (prefix: string, role: string, index: number) =>
  `${prefix}:lease:${role}:${index}`;

/**
 * Where a sharded role's processes record its shard count (every process running it writes the
 * count it runs with), so metrics can tell a shard without a holder from a shard that does not exist.
 */
export const shardCountKey = (prefix: string, role: string) => `${prefix}:lease-shards:${role}`;

/** The roles the worker splits into shards, each shard a lease of its own. */
export const SHARDED_ROLES = ["spot-matcher", "contract-risk"] as const;

/** A lease key's role and shard: `…:lease:spot-matcher:3` is role `spot-matcher`, shard `3`. */
export function leaseRole(keyAfterLease: string): { role: string; shard: string } {
  const match = /^(.*):(\d+)$/.exec(keyAfterLease);
  return match ? { role: match[1] as string, shard: match[2] as string } : { role: keyAfterLease, shard: "" };
}

export class Lease {
  readonly token = randomUUID();
  private timer: ReturnType<typeof setInterval> | null = null;
  private held = false;
  private busy = false;
  /** When the lease was last taken or renewed; past the TTL it may already be someone else's. */
  private confirmedAt = 0;

  constructor(
    private readonly redis: Redis,
    readonly key: string,
    private readonly options: LeaseOptions,
  ) {}

  get isHeld(): boolean {
    return this.held;
  }

  /** Starts trying to take the lease, and keeps renewing it once held. */
  async start(): Promise<void> {
    await this.tick();
    this.timer = setInterval(() => void this.tick(), this.options.intervalMs ?? 2000);
  }

  async stop(): Promise<void> {
    if (this.timer) {
      clearInterval(this.timer);
    }
    this.timer = null;
    if (this.held) {
      this.held = false;
      await this.options.onLost();
      await this.redis.eval(RELEASE, 1, this.key, this.token).catch(() => {});
      this.options.budget?.release();
    }
  }

  private async lose(reason: string): Promise<void> {
    this.held = false;
    this.options.log?.(`lost lease ${this.key}: ${reason}`);
    this.options.budget?.release();
    await this.options.onLost();
  }

  private async tick(): Promise<void> {
    if (this.busy) {
      return;
    }
    this.busy = true;
    const ttl = this.options.ttlMs ?? 10_000;
    let reached = true;
    try {
      if (this.held) {
        const renewed = await this.redis.eval(RENEW, 1, this.key, this.token, String(ttl));
        if (renewed === 1) {
          this.confirmedAt = Date.now();
        } else {
          await this.lose("taken by another holder");
        }
      } else if (this.options.budget?.available() ?? true) {
        const taken = await this.redis.set(this.key, this.token, "PX", ttl, "NX");
        if (taken === "OK" && !(this.options.budget?.reserve() ?? true)) {
          // A sibling lease took this process's last place while this try was in flight.
          await this.redis.eval(RELEASE, 1, this.key, this.token).catch(() => {});
        } else if (taken === "OK") {
          this.held = true;
          this.confirmedAt = Date.now();
          this.options.log?.(`took lease ${this.key}`);
          // Not awaited here: renewals must go on while the holder starts up (it may take a while).
          void Promise.resolve()
            .then(() => this.options.onAcquired())
            .catch(async (error) => {
              // A holder that could not start gives the role back for a standby (or its own next try).
              this.options.log?.(`lease ${this.key}: start failed: ${String(error).slice(0, 500)}`);
              if (!this.held) {
                return;
              }
              this.held = false;
              this.options.budget?.release();
              await this.redis.eval(RELEASE, 1, this.key, this.token).catch(() => {});
            });
        }
      }
    } catch (error) {
      reached = false;
      // Unable to renew (Redis unreachable): once the TTL may have run out, another holder may exist,
      // so this one must stop acting before that, not when Redis comes back.
      if (this.held && Date.now() - this.confirmedAt >= ttl * 0.8) {
        await this.lose("could not renew");
      }
      const text = error instanceof Error ? error.message : String(error);
      this.options.log?.(`lease ${this.key}: ${text.length > 500 ? `${text.slice(0, 500)}…` : text}`);
    } finally {
      this.busy = false;
    }
    this.options.onAttempt?.(this.held, reached);
  }
}
