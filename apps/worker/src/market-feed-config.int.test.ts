import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { SimulatorFeed, type Tick } from "@northstar/domain/market-feed";
import { loadCatalogue, runningFeed } from "@northstar/domain/markets";
import { afterEach, describe, expect, it, vi } from "vitest";
import { env } from "./env.ts";
import { feedSeed, recordFeedStart } from "./market-data.ts";
import { useWorkerTestBed } from "./test/queue-test-bed.ts";

/**
 * No real money on made-up prices: a production start refuses a feed that is not live unless the
 * operator declares a sandbox, and the simulator's seed is the deployment's own secret, not a number
 * anyone can read in the repository and replay to know the next price.
 */
const bed = useWorkerTestBed("feed-config");
const ROOT = fileURLToPath(new URL("../../../", import.meta.url));

afterEach(() => {
  vi.unstubAllEnvs();
});

const start = (vars: Record<string, string | undefined>) => {
  for (const [key, value] of Object.entries(vars)) {
    vi.stubEnv(key, value);
  }
  return env();
};

describe("the worker's start in production", () => {
  it("refuses the simulator (and the replay) unless the operator declares a sandbox", () => {
    expect(() => start({ NODE_ENV: "production", FEED_KIND: "simulator", SANDBOX: undefined })).toThrow(
      /SANDBOX=true/,
    );
    expect(() => start({ NODE_ENV: "production", FEED_KIND: undefined, SANDBOX: undefined })).toThrow(
      /SANDBOX=true/,
    );
    expect(() => start({ NODE_ENV: "production", FEED_KIND: "replay", SANDBOX: "false" })).toThrow(
      /SANDBOX=true/,
    );
    expect(start({ NODE_ENV: "production", FEED_KIND: "simulator", SANDBOX: "true" })).toMatchObject({
      FEED_KIND: "simulator",
      SANDBOX: true,
    });
    expect(start({ NODE_ENV: "production", FEED_KIND: "ccxt", SANDBOX: undefined })).toMatchObject({
      FEED_KIND: "ccxt",
      SANDBOX: false,
    });
    // The production feed (crypto from ccxt, the rest from Yahoo) and Yahoo alone are live too.
    for (const kind of ["live", "yahoo"]) {
      expect(start({ NODE_ENV: "production", FEED_KIND: kind, SANDBOX: undefined })).toMatchObject({
        FEED_KIND: kind,
        SANDBOX: false,
      });
    }
    // Development and tests run the simulator as before.
    expect(start({ NODE_ENV: "development", FEED_KIND: undefined, SANDBOX: undefined }).FEED_KIND).toBe(
      "simulator",
    );
  });
});

/** Every seed the repository's text and code defaults print: README, docs, the worker's env, the simulator. */
function publishedSeeds(): string[] {
  const texts = [
    readFileSync(join(ROOT, "README.md"), "utf8"),
    ...readdirSync(join(ROOT, "docs"))
      .filter((f) => f.endsWith(".md"))
      .map((f) => readFileSync(join(ROOT, "docs", f), "utf8")),
    readFileSync(join(ROOT, "apps/worker/src/env.ts"), "utf8"),
    readFileSync(join(ROOT, "packages/domain/src/markets/feeds/simulator.ts"), "utf8"),
    readFileSync(join(ROOT, "docker-compose.yml"), "utf8"),
  ];
  const seeds = new Set<string>(["20261122"]);
  for (const text of texts) {
    for (const line of text.split("\n").filter((l) => /seed/i.test(l))) {
      for (const m of line.matchAll(/\b\d{3,}\b/g)) {
        seeds.add(m[0]);
      }
      for (const m of line.matchAll(/seed\s*\?\?\s*"([^"]+)"/g)) {
        seeds.add(m[1] as string);
      }
    }
  }
  return [...seeds];
}

const WEDNESDAY = Date.parse("2026-01-07T15:00:00Z");
async function ticksOf(seed: string | number): Promise<Tick[]> {
  const instruments = (await loadCatalogue(bed.db)).filter((i) =>
    ["BTCUSDT", "ETHUSDT", "SOLUSDT"].includes(i.symbol),
  );
  const feed = new SimulatorFeed({ seed, manual: true });
  await feed.start(instruments, () => {});
  const ticks: Tick[] = [];
  for (let i = 0; i < 20; i++) {
    ticks.push(...feed.step(WEDNESDAY + i * 1000));
  }
  await feed.stop();
  return ticks;
}

describe("the simulator's seed", () => {
  it("is drawn at random per deployment and kept across restarts; no published seed predicts its ticks", async () => {
    const config = start({ NODE_ENV: "development", FEED_KIND: "simulator", FEED_SEED: undefined });
    expect(config.FEED_SEED).toBeUndefined();
    const seed = await feedSeed(bed.db, config);
    expect(seed).toMatch(/^[0-9a-f]{64}$/);
    // A restart (or the standby taking the feed over) keeps the deployment's seed.
    expect(await feedSeed(bed.db, config)).toBe(seed);
    const running = await ticksOf(seed as string);
    expect(running.length).toBeGreaterThan(0);
    const published = publishedSeeds();
    expect(published).toContain("20261122");
    for (const candidate of published) {
      const implied = await ticksOf(candidate);
      expect(
        implied.map((t) => t.price),
        `seed ${candidate}`,
      ).not.toEqual(running.map((t) => t.price));
      const numeric = Number(candidate);
      if (Number.isInteger(numeric)) {
        expect((await ticksOf(numeric)).map((t) => t.price)).not.toEqual(running.map((t) => t.price));
      }
    }
    // An explicit FEED_SEED (tests, replays of a recorded run) is still taken as given.
    const given = start({ NODE_ENV: "development", FEED_KIND: "simulator", FEED_SEED: "replay-42" });
    expect(await feedSeed(bed.db, given)).toBe("replay-42");
  });

  it("the platform knows which feed runs: the worker records it when the feed starts", async () => {
    await recordFeedStart(bed.db, start({ NODE_ENV: "development", FEED_KIND: "simulator" }));
    expect(await runningFeed(bed.db)).toEqual({ kind: "simulator", simulated: true });
    await recordFeedStart(bed.db, start({ NODE_ENV: "production", FEED_KIND: "ccxt" }));
    expect(await runningFeed(bed.db)).toEqual({ kind: "ccxt", simulated: false });
  });
});
