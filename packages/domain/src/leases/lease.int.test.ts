import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, describe, expect, it, vi } from "vitest";
import { testRedisUrl } from "../test-support/index.ts";
import { Lease, shardCountKey, shardLeaseKey } from "./index.ts";

const url = testRedisUrl();
const key = `test:lease:${randomBytes(4).toString("hex")}`;
const connections: Redis[] = [];
const connect = () => {
  const redis = new Redis(url, { maxRetriesPerRequest: 1, retryStrategy: () => null });
  redis.on("error", () => {});
  connections.push(redis);
  return redis;
};
afterAll(async () => {
  for (const c of connections) {
    c.disconnect();
  }
});

const TTL = 1200;

describe("lease", () => {
  it("has one holder; a standby takes over when the holder dies, and the old holder is told it lost", async () => {
    const events: string[] = [];
    let acquiredAt = 0;
    /** When each of the standby's tries ended with the lease still someone else's. */
    const standbyRefused: number[] = [];
    const holderRedis = connect();
    const holder = new Lease(holderRedis, key, {
      ttlMs: TTL,
      intervalMs: 100,
      onAcquired: () => {
        acquiredAt = Date.now();
        events.push("holder acquired");
      },
      onLost: () => void events.push("holder lost"),
    });
    const standby = new Lease(connect(), key, {
      ttlMs: TTL,
      intervalMs: 100,
      onAcquired: () => void events.push("standby acquired"),
      onLost: () => void events.push("standby lost"),
      onAttempt: (held) => {
        if (!held) {
          standbyRefused.push(Date.now());
        }
      },
    });
    await holder.start();
    await vi.waitFor(() => expect(events).toContain("holder acquired"), { timeout: 2000, interval: 20 });
    await standby.start();
    // A try that began after a refusal ended past the first grant's TTL would have found the key
    // expired, had the holder not renewed it: two such refusals prove the renewals kept it.
    await vi.waitFor(
      () => expect(standbyRefused.filter((at) => at >= acquiredAt + TTL).length).toBeGreaterThanOrEqual(2),
      { timeout: 5000, interval: 20 },
    );
    expect(standby.isHeld).toBe(false);
    expect(events).toEqual(["holder acquired"]);

    // The holder's connection dies: it can no longer renew, the lease lapses, the standby takes it.
    holderRedis.disconnect();
    await vi.waitFor(() => expect(events).toContain("standby acquired"), { timeout: 5000, interval: 20 });
    expect(standby.isHeld).toBe(true);
    // The dead holder stopped acting on its own, before the lease could lapse (at 80% of the TTL
    // without a renewal), so the two never acted at once.
    expect(events).toEqual(["holder acquired", "holder lost", "standby acquired"]);
    expect(await connect().get(key)).toBe(standby.token);
    await holder.stop();
    await standby.stop();
    expect(await connect().get(key)).toBeNull();
  });
});

/*
 * Two sets of shard leases of one role on one prefix, with shard counts 2 and 3: the first to hold
 * keeps the role, the other takes no shard (not even the third, which no one holds) until every
 * holder of the first count is gone; then it takes all of its shards, at once when they let go and
 * within a TTL or so when they die.
 */
describe("shard leases under two shard counts", () => {
  const prefix = `test:lease-shards:${randomBytes(4).toString("hex")}`;
  const role = "test-role";
  const countKey = shardCountKey(prefix, role);
  /** The leases of one process running the role with `count` shards, and what happened to them. */
  const shardSet = (redis: Redis, count: number, name: string, events: string[]) => {
    const keys = Array.from({ length: count }, (_, i) => shardLeaseKey(prefix, role, i));
    const refusals: { shard: number; otherCount: number; at: number }[] = [];
    const leases = keys.map(
      (key, shard) =>
        new Lease(redis, key, {
          ttlMs: TTL,
          intervalMs: 100,
          shard: { count, countKey, keys },
          onAcquired: () => void events.push(`${name} took ${shard}`),
          onLost: () => void events.push(`${name} lost ${shard}`),
          onAttempt: (_held, _reached, otherCount) => {
            if (otherCount !== undefined) {
              refusals.push({ shard, otherCount, at: Date.now() });
            }
          },
        }),
    );
    return {
      leases,
      refusals,
      held: () => leases.filter((l) => l.isHeld).length,
      start: () => Promise.all(leases.map((l) => l.start())),
      stop: () => Promise.all(leases.map((l) => l.stop())),
    };
  };

  it("the first count keeps the role while any of its holders lasts; the other takes over once they let go", async () => {
    const redis = connect();
    // A count a version without the guard left behind (no TTL) proves no holder and blocks nothing.
    await redis.set(countKey, "5");
    const events: string[] = [];
    // Count 2 in two processes, one shard each.
    const [a0, a1] = [0, 1].map((i) => shardSet(connect(), 2, `a${i}`, events).leases[i]) as [Lease, Lease];
    await a0.start();
    await a1.start();
    await vi.waitFor(() => expect(a0.isHeld && a1.isHeld).toBe(true), {
      timeout: 3000,
      interval: 20,
    });
    expect(a0.token).toMatch(/^2\//);
    expect(await redis.get(countKey)).toBe("2");
    expect(await redis.pttl(countKey)).toBeGreaterThan(0);

    const b = shardSet(connect(), 3, "b", events);
    const bStarted = Date.now();
    await b.start();
    // Every shard of b refused for count 2, the free third one too, past the first grant's TTL
    // (so the count was kept alive by renewals, not just set once).
    const refusedAfter = (since: number) =>
      new Set(b.refusals.filter((r) => r.at >= since && r.otherCount === 2).map((r) => r.shard));
    await vi.waitFor(() => expect(refusedAfter(bStarted + TTL)).toEqual(new Set([0, 1, 2])), {
      timeout: 6000,
      interval: 20,
    });
    expect(b.held()).toBe(0);
    expect(await redis.get(shardLeaseKey(prefix, role, 2))).toBeNull();

    // One holder of count 2 lets go of shard 0: the other still holds shard 1, so b still takes none.
    await a0.stop();
    const firstGone = Date.now();
    await vi.waitFor(() => expect(refusedAfter(firstGone)).toEqual(new Set([0, 1, 2])), {
      timeout: 3000,
      interval: 20,
    });
    expect(b.held()).toBe(0);
    expect(await redis.get(countKey)).toBe("2");

    // The last holder of count 2 lets go: b takes all three well within a TTL.
    await a1.stop();
    const lastGone = Date.now();
    await vi.waitFor(() => expect(b.held()).toBe(3), { timeout: 3000, interval: 10 });
    const takeoverMs = Date.now() - lastGone;
    console.log(`count 3 took its shards ${takeoverMs} ms after count 2 let go (TTL ${TTL} ms)`);
    expect(takeoverMs).toBeLessThan(TTL);
    expect(await redis.get(countKey)).toBe("3");
    expect(events.filter((e) => e.startsWith("b took")).length).toBe(3);
    expect(events.indexOf("a1 lost 1")).toBeLessThan(events.findIndex((e) => e.startsWith("b took")));
    await b.stop();
    // The last holder to let go clears the count.
    expect(await redis.get(countKey)).toBeNull();
  });

  it("when the holders of one count die, the other takes over once their leases lapse, not before", async () => {
    const events: string[] = [];
    const deadRedis = connect();
    const dying = shardSet(deadRedis, 3, "dying", events);
    await dying.start();
    await vi.waitFor(() => expect(dying.held()).toBe(3), { timeout: 3000, interval: 20 });
    const next = shardSet(connect(), 2, "next", events);
    await next.start();
    await vi.waitFor(() => expect(next.refusals.length).toBeGreaterThanOrEqual(4), {
      timeout: 3000,
      interval: 20,
    });

    deadRedis.disconnect();
    const diedAt = Date.now();
    await vi.waitFor(() => expect(next.held()).toBe(2), { timeout: 4 * TTL, interval: 10 });
    const takeoverMs = Date.now() - diedAt;
    console.log(`count 2 took its shards ${takeoverMs} ms after count 3's holders died (TTL ${TTL} ms)`);
    // The count lapses a TTL after the last renewal; the standby tries every 100 ms.
    expect(takeoverMs).toBeLessThan(2 * TTL);
    // The dead holders stopped acting (at 80% of the TTL without a renewal) before any was taken.
    const firstTaken = events.findIndex((e) => e.startsWith("next took"));
    expect(events.slice(0, firstTaken).filter((e) => e.startsWith("dying lost")).length).toBe(3);
    expect(next.refusals.every((r) => r.otherCount === 3)).toBe(true);
    await dying.stop();
    await next.stop();
  });
});
