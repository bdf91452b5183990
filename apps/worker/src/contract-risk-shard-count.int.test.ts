import { shardCountKey, shardLeaseKey } from "@northstar/domain/leases";
import { afterAll, describe, expect, it } from "vitest";
import { until } from "../../../packages/domain/src/test-support/index.ts";
import { startContractRisk } from "./contract-risk.ts";
import { shardedRoleStatuses } from "./leased.ts";
import { useWorkerTestBed } from "./test/queue-test-bed.ts";

/*
 * The contracts risk engine run with two shard counts on one prefix (the role functions of two
 * workers, in this process): the one started later, with 3 shards, starts no engine while the one
 * with 2 holds its shards, and says so once; when the first stops, it starts its three engines
 * within the lease TTL.
 */
const TTL_MS = 1000;
const bed = useWorkerTestBed("contract-risk-shard-count");
const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const close of closers) {
    await close();
  }
});

/** The shards of `count` a role's output says it started an engine for. */
const started = (lines: string[], count: number) =>
  lines.flatMap((l) => {
    const match = new RegExp(`contract risk engine (\\d+)/${count} started`).exec(l);
    return match ? [Number(match[1])] : [];
  });

describe("the contract risk engine under two shard counts", () => {
  it("the later count starts no engine while the first holds, and takes every shard once it stops", async () => {
    const { redis, prefix } = bed;
    const role = (count: number, lines: string[]) => {
      const running = startContractRisk(bed.db, redis, {
        prefix,
        leaseTtlMs: TTL_MS,
        log: (line) => lines.push(line),
        shards: count,
      });
      closers.push(() => running.close());
      return running;
    };
    const oldLines: string[] = [];
    const old = role(2, oldLines);
    await until(() => started(oldLines, 2).length === 2, "both engines of count 2");

    const newLines: string[] = [];
    role(3, newLines);
    const standingBy = () => newLines.filter((l) => l.includes("contract-risk: standing by"));
    await until(() => standingBy().length === 1, "the count-3 role to stand by");
    expect(standingBy()[0]).toContain("held by workers with 2 shards, this one has 3");
    const mine = () => shardedRoleStatuses().find((s) => s.role === "contract-risk" && s.count === 3);
    expect(mine()?.otherCount).toBe(2);
    // Two lease lives of retries (every fifth of the TTL): still nothing taken, and said only once.
    const since = Date.now();
    await until(() => Date.now() - since > 2 * TTL_MS, "two lease lives");
    expect(started(newLines, 3)).toEqual([]);
    expect(newLines.filter((l) => l.startsWith("took lease"))).toEqual([]);
    expect(standingBy()).toHaveLength(1);
    const keys = [0, 1, 2].map((i) => shardLeaseKey(prefix, "contract-risk", i));
    const tokens = await redis.mget(...keys);
    expect(tokens[0]).toMatch(/^2\//);
    expect(tokens[1]).toMatch(/^2\//);
    expect(tokens[2]).toBeNull();
    expect(await redis.get(shardCountKey(prefix, "contract-risk"))).toBe("2");

    // The count-2 role stops (its leases let go): count 3 starts its three engines within the TTL.
    await old.close();
    const stoppedAt = Date.now();
    await until(() => started(newLines, 3).length === 3, "the three engines of count 3", 10_000);
    const takeoverMs = Date.now() - stoppedAt;
    console.log(
      `count 3 started its engines ${takeoverMs} ms after count 2 stopped (lease TTL ${TTL_MS} ms)`,
    );
    expect(takeoverMs).toBeLessThan(TTL_MS);
    expect(new Set(started(newLines, 3))).toEqual(new Set([0, 1, 2]));
    expect(mine()?.otherCount).toBeNull();
    expect(newLines.filter((l) => l.includes("the workers with 2 shards are gone"))).toHaveLength(1);
    expect(await redis.get(shardCountKey(prefix, "contract-risk"))).toBe("3");
    for (const token of await redis.mget(...keys)) {
      expect(token).toMatch(/^3\//);
    }
  }, 60_000);
});
