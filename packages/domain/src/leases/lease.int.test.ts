import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { testRedisUrl } from "../test-support/redis.ts";
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

const until = async (check: () => boolean, ms: number) => {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) {
      throw new Error("timed out");
    }
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe("lease", () => {
  it("has one holder; a standby takes over when the holder dies, and the old holder is told it lost", async () => {
    const events: string[] = [];
    const holderRedis = connect();
    const holder = new Lease(holderRedis, key, {
      ttlMs: 1200,
      intervalMs: 100,
      onAcquired: () => void events.push("holder acquired"),
      onLost: () => void events.push("holder lost"),
    });
    const standby = new Lease(connect(), key, {
      ttlMs: 1200,
      intervalMs: 100,
      onAcquired: () => void events.push("standby acquired"),
      onLost: () => void events.push("standby lost"),
    });
    await holder.start();
    await until(() => events.includes("holder acquired"), 2000);
    await standby.start();
    await new Promise((r) => setTimeout(r, 1600));
    // Renewals kept the lease past its TTL; the standby never got it.
    expect(standby.isHeld).toBe(false);
    expect(events).toEqual(["holder acquired"]);

    // The holder's connection dies: it can no longer renew, the lease lapses, the standby takes it.
    const died = Date.now();
    holderRedis.disconnect();
    await until(() => standby.isHeld, 5000);
    // Within the TTL and a renewal interval, with room for a slow machine.
    expect(Date.now() - died).toBeLessThan(2500);
    // The dead holder stopped acting on its own once it could not renew within the TTL.
    await until(() => events.includes("holder lost"), 2500);
    expect(events.indexOf("holder lost")).toBeGreaterThan(0);
    expect(await connect().get(key)).toBe(standby.token);
    await holder.stop();
    await standby.stop();
    expect(await connect().get(key)).toBeNull();
  });
});
