import { LiveFeed, type MarketFeed, type Tick } from "@northstar/domain/market-feed";
import { clearSourceHealth, sourceStatuses } from "@northstar/domain/markets";
import { describe, expect, it } from "vitest";
import { watchSourceHealth } from "./market-data.ts";
import { useWorkerTestBed } from "./test/queue-test-bed.ts";

/**
 * The market-feed worker's watch over its live sources: a source silent for longer than policy
 * `feeds.staleAfterSeconds` is recorded stale (the API then refuses its markets' new orders), and its
 * first new price records it live again.
 */
const bed = useWorkerTestBed("source-health");

/** A source that sends what the test tells it to. */
function scriptedSource(): MarketFeed & { send(tick: Tick): void } {
  let emit: ((tick: Tick) => void) | null = null;
  return {
    name: "yahoo",
    history: async () => ({ "1d": [], "1h": [], "1m": [] }),
    start: async (_instruments, onTick) => {
      emit = onTick;
    },
    stop: async () => {
      emit = null;
    },
    send: (tick) => emit?.(tick),
  };
}

describe("the live feed's source health", () => {
  it("records a silent source stale, says its markets are paused, and records it live on a new price", async () => {
    await clearSourceHealth(bed.db);
    // The feed started two minutes ago and this source has said nothing since (policy: 60 s).
    const startedAt = Date.now() - 120_000;
    const source = scriptedSource();
    const feed = new LiveFeed({ yahoo: source }, startedAt);
    await feed.start([], () => {});
    const lines: string[] = [];
    const waiters: { pattern: RegExp; resolve: () => void }[] = [];
    const log = (line: string) => {
      lines.push(line);
      for (const w of waiters.filter((w) => w.pattern.test(line))) {
        w.resolve();
      }
    };
    const logged = (pattern: RegExp) =>
      lines.some((l) => pattern.test(l))
        ? Promise.resolve()
        : new Promise<void>((resolve) => waiters.push({ pattern, resolve }));
    const watch = watchSourceHealth(bed.db, feed, log);
    try {
      await logged(/yahoo stale since .*its markets paused/);
      expect(await sourceStatuses(bed.db)).toMatchObject([
        { source: "yahoo", label: "yahoo", staleSince: new Date(startedAt).toISOString() },
      ]);

      const now = Date.now();
      source.send({
        symbol: "EURUSD",
        price: "1.04899",
        volume: "0",
        time: now - 300,
        source: "yahoo",
        sourceSymbol: "EURUSD=X",
        sourceTime: now - 300,
        receivedAt: now,
      });
      await logged(/yahoo live again/);
      expect(await sourceStatuses(bed.db)).toMatchObject([
        { source: "yahoo", staleSince: null, lastSourceTime: new Date(now - 300).toISOString() },
      ]);
    } finally {
      watch.stop();
      await feed.stop();
      await clearSourceHealth(bed.db);
    }
  });
});
