import { createHash, randomUUID } from "node:crypto";
import type { Redis } from "ioredis";

/**
 * A Redis lease: one holder at a time for a named role (the market feed, a market's matcher).
 * The holder renews it well before it expires; if the holder dies, the lease lapses and a standby
 * that keeps trying takes over. Renew and release only succeed for the holder's own token.
 */
const RENEW = `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("pexpire", KEYS[1], ARGV[2]) else return 0 end`;
const RELEASE = `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`;

/*
 * A shard's lease (`ShardLease`) also keeps the role's count key (`shardCountKey`): the shard count
 * its holders run with, set when a shard is taken and kept alive by every holder's renewals, so it
 * outlives the last of them by one TTL at most (the last to let go deletes it). A shard is taken
 * only while the key is absent or says the taker's own count: of two workers with different counts,
 * whoever took a shard first keeps the role; the other takes nothing until all of the first count
 * are gone. KEYS[1] the shard's lease, KEYS[2] the count key; ARGV token, TTL, count.
 */
/**
 * Records the count for at least this holder's TTL (never shortening a longer life another gave it).
 * While a shard is held the key says another count only if a version without this guard wrote it
 * (without a TTL): the holders' count replaces it.
 */
const RECORD_COUNT = `local function record_count()
  if redis.call("get", KEYS[2]) ~= ARGV[3] or redis.call("pttl", KEYS[2]) < tonumber(ARGV[2]) then
    redis.call("set", KEYS[2], ARGV[3], "px", ARGV[2])
  end
end
`;
/**
 * 1 when taken, 0 when a holder of this count has it, or the other count the role is held under. A
 * count without a TTL was written by a version that kept no count key alive: it proves no holder.
 */
const TAKE_SHARD = `${RECORD_COUNT}
local held = redis.call("get", KEYS[2])
if held and held ~= ARGV[3] and redis.call("pttl", KEYS[2]) ~= -1 then return held end
if not redis.call("set", KEYS[1], ARGV[1], "px", ARGV[2], "nx") then return 0 end
record_count()
return 1`;
const RENEW_SHARD = `${RECORD_COUNT}
if redis.call("get", KEYS[1]) ~= ARGV[1] then return 0 end
redis.call("pexpire", KEYS[1], ARGV[2])
record_count()
return 1`;
/**
 * KEYS[3…] are every shard's lease of this count (all its holders'): the last holder to let go
 * deletes the count key, so workers with another count take over at once rather than a TTL later.
 */
const RELEASE_SHARD = `if redis.call("get", KEYS[1]) ~= ARGV[1] then return 0 end
redis.call("del", KEYS[1])
if redis.call("get", KEYS[2]) == ARGV[2] and redis.call("exists", unpack(KEYS, 3)) == 0 then
  redis.call("del", KEYS[2])
end
return 1`;

/** The lease of one shard of a sharded role (see `shardLeaseKey` and `shardCountKey`). */
export interface ShardLease {
  /** The shard count this process runs the role with. */
  count: number;
  /** The role's `shardCountKey`. */
  countKey: string;
  /** The leases of every shard of the role at this count (`shardLeaseKey` 0 … count − 1). */
  keys: string[];
}

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
   * the try (for health checks); for a shard, and when the try was refused because the role is held
   * under another shard count, that count.
   */
  onAttempt?: (held: boolean, reached: boolean, otherCount?: number) => void;
  /**
   * A limit on leases of one kind held by this process: `available` is asked before each try to
   * take the lease (false skips it); a lease taken then `reserve`s a place, and gives the lease back
   * at once when a sibling took the last place meanwhile; `release` frees the place when the lease
   * is lost or given up. Siblings never hold a place for a try that fails, so none starves another.
   */
  budget?: { available(): boolean; reserve(): boolean; release(): void };
  /** Makes this the lease of one shard of a sharded role, taken only under one shard count at a time. */
  shard?: ShardLease;
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
 * The shard count a sharded role's lease holders run with, while any holds a shard (see `ShardLease`):
 * a process with another count takes no shard while it exists, and metrics tell by it a shard
 * without a holder from a shard that does not exist.
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
  /** A shard's token begins with its count, so the holder's count shows wherever the token does. */
  readonly token: string;
  private timer: ReturnType<typeof setInterval> | null = null;
  private held = false;
  private busy = false;
  /** When the lease was last taken or renewed; past the TTL it may already be someone else's. */
  private confirmedAt = 0;

  constructor(
    private readonly redis: Redis,
    readonly key: string,
    private readonly options: LeaseOptions,
  ) {
    this.token = options.shard ? `${options.shard.count}/${randomUUID()}` : randomUUID();
  }

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
      await this.release();
      this.options.budget?.release();
    }
  }

  /** Gives the lease back, if still this holder's. */
  private async release(): Promise<void> {
    const shard = this.options.shard;
    await (shard
      ? this.redis.eval(
          RELEASE_SHARD,
          2 + shard.keys.length,
          this.key,
          shard.countKey,
          ...shard.keys,
          this.token,
          shard.count,
        )
      : this.redis.eval(RELEASE, 1, this.key, this.token)
    ).catch(() => {});
  }

  /** Takes the lease if free: 1 when taken, 0 when held, or the other shard count the role is held under. */
  private async take(ttl: number): Promise<number | string> {
    const shard = this.options.shard;
    if (shard) {
      const reply = await this.redis.eval(
        TAKE_SHARD,
        2,
        this.key,
        shard.countKey,
        this.token,
        ttl,
        shard.count,
      );
      return reply as number | string;
    }
    return (await this.redis.set(this.key, this.token, "PX", ttl, "NX")) === "OK" ? 1 : 0;
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
    let otherCount: number | undefined;
    try {
      const shard = this.options.shard;
      if (this.held) {
        const renewed = shard
          ? await this.redis.eval(RENEW_SHARD, 2, this.key, shard.countKey, this.token, ttl, shard.count)
          : await this.redis.eval(RENEW, 1, this.key, this.token, String(ttl));
        if (renewed === 1) {
          this.confirmedAt = Date.now();
        } else {
          await this.lose("taken by another holder");
        }
      } else if (this.options.budget?.available() ?? true) {
        const taken = await this.take(ttl);
        if (typeof taken === "string") {
          otherCount = Number(taken);
        } else if (taken === 1 && !(this.options.budget?.reserve() ?? true)) {
          // A sibling lease took this process's last place while this try was in flight.
          await this.release();
        } else if (taken === 1) {
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
              await this.release();
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
    this.options.onAttempt?.(this.held, reached, otherCount);
  }
}
