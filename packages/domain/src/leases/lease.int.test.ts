import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, describe, expect, it, vi } from "vitest";
import { testRedisUrl } from "../test-support/index.ts";
import { Lease } from "./index.ts";

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
