import { type Candle, isMarketOpen } from "@northstar/shared/markets";
import { MoneyDecimal } from "@northstar/shared/money";
import { beforeAll, describe, expect, it, onTestFinished, vi } from "vitest";
import { seedCandles } from "../candles/seed.ts";
import { SEED_INSTRUMENTS } from "../catalogue.seed.ts";
import { isOnGrid } from "./grid.ts";
import { historyRanges } from "./history.ts";
import { SimulatorFeed } from "./simulator.ts";
import type { FeedInstrument, HistorySeed, Tick } from "./types.ts";

const instrument = (symbol: string): FeedInstrument => {
  const row = SEED_INSTRUMENTS.find((i) => i.symbol === symbol);
  if (!row) {
    throw new Error(symbol);
  }
  return row;
};
const BTC = instrument("BTCUSDT");
const DOGE = instrument("DOGEUSDT");
const EURUSD = instrument("EURUSD");
const AAPL = instrument("AAPL");
const XAUUSD = instrument("XAUUSD");
const JPN225 = instrument("JPN225");
const ALL = [BTC, DOGE, EURUSD, AAPL, XAUUSD, JPN225];

/** Wednesday 2025-06-11 15:00Z: every market in ALL except JPN225 is open. */
const WEDNESDAY = Date.parse("2025-06-11T15:00:00Z");
/** Saturday 2025-06-14 15:00Z: only crypto trades. */
const SATURDAY = Date.parse("2025-06-14T15:00:00Z");

async function run(seed: string | number, from: number, steps: number, instruments = ALL): Promise<Tick[]> {
  const feed = new SimulatorFeed({ seed, manual: true });
  const received: Tick[] = [];
  await feed.start(instruments, (t) => received.push(t));
  const returned: Tick[] = [];
  for (let i = 0; i < steps; i++) {
    returned.push(...feed.step(from + i * 1000));
  }
  await feed.stop();
  expect(returned).toEqual(received);
  return returned;
}

const priceOf = (ticks: Tick[], symbol: string) =>
  ticks.filter((t) => t.symbol === symbol).map((t) => t.price);

/** Candles that break OHLC consistency or leave the tick grid (collected: one expect per candle is slow). */
function inconsistent(candles: Candle[], tickSize: string): Candle[] {
  return candles.filter((c) => {
    const [o, h, l, cl, v] = [c.open, c.high, c.low, c.close, c.volume].map((p) => new MoneyDecimal(p));
    if (!o || !h || !l || !cl || !v) {
      return true;
    }
    return (
      ![c.open, c.high, c.low, c.close].every((p) => isOnGrid(p, tickSize)) ||
      h.lt(MoneyDecimal.max(o, cl)) ||
      l.gt(MoneyDecimal.min(o, cl)) ||
      v.lt(0)
    );
  });
}

describe("SimulatorFeed live ticks", () => {
  it("is deterministic for a seed and differs between seeds", async () => {
    const a = await run("demo", WEDNESDAY, 300);
    expect(await run("demo", WEDNESDAY, 300)).toEqual(a);
    const b = await run("other", WEDNESDAY, 300);
    expect(priceOf(b, "BTCUSDT")).not.toEqual(priceOf(a, "BTCUSDT"));
  });

  it("emits only prices that are positive whole multiples of the tick size, and lot-sized volumes", async () => {
    const ticks = await run(7, WEDNESDAY, 600);
    expect(ticks.length).toBeGreaterThan(0);
    const bySymbol = new Map(ALL.map((i) => [i.symbol, i]));
    const bad = ticks.filter((t) => {
      const i = bySymbol.get(t.symbol);
      const volume = new MoneyDecimal(t.volume);
      return (
        !i ||
        !isOnGrid(t.price, i.tickSize) ||
        !/^\d+(\.\d+)?$/.test(t.price) ||
        volume.lt(0) ||
        !volume.mod(i.lotSize).isZero()
      );
    });
    expect(bad).toEqual([]);
    expect(ticks.some((t) => t.volume !== "0")).toBe(true);
  });

  it("starts near the reference price and moves like the instrument's volatility", async () => {
    const ticks = await run("vol", WEDNESDAY, 3600, [BTC, EURUSD]);
    for (const i of [BTC, EURUSD]) {
      const prices = priceOf(ticks, i.symbol).map(Number);
      expect(prices).toHaveLength(3600);
      const ref = Number(i.referencePrice);
      expect(Math.abs((prices[0] ?? 0) / ref - 1)).toBeLessThan(0.001);
      // Realised volatility of one hour of 1-second returns, annualised over trading time, within 2×.
      const returns = prices.slice(1).map((p, k) => Math.log(p / (prices[k] ?? p)));
      const variance = returns.reduce((s, r) => s + r * r, 0) / returns.length;
      const yearSeconds = 365.25 * 86_400 * (i === EURUSD ? 120 / 168 : 1);
      const annualised = Math.sqrt(variance * yearSeconds);
      expect(annualised / Number(i.volatility)).toBeGreaterThan(0.5);
      expect(annualised / Number(i.volatility)).toBeLessThan(2);
    }
  });

  it("continues from lastPrice when given one", async () => {
    const ticks = await run("resume", WEDNESDAY, 1, [{ ...BTC, lastPrice: "60000" }]);
    expect(Math.abs(Number(ticks[0]?.price) / 60000 - 1)).toBeLessThan(0.001);
  });

  it("says on every tick that its price is made up by the simulator", async () => {
    const ticks = await run("demo", WEDNESDAY, 3);
    expect(ticks.length).toBeGreaterThan(0);
    for (const t of ticks) {
      expect(t).toMatchObject({
        source: "simulator",
        sourceSymbol: t.symbol,
        sourceTime: t.time,
        receivedAt: t.time,
      });
      expect(t).not.toHaveProperty("sourceId");
    }
  });

  it("emits nothing for a closed market: no stock or forex ticks on a Saturday, crypto goes on", async () => {
    const ticks = await run("weekend", SATURDAY, 120);
    expect(new Set(ticks.map((t) => t.symbol))).toEqual(new Set(["BTCUSDT", "DOGEUSDT"]));
    const wednesday = await run("weekday", WEDNESDAY, 5);
    expect(new Set(wednesday.map((t) => t.symbol))).toEqual(
      new Set(["BTCUSDT", "DOGEUSDT", "EURUSD", "AAPL", "XAUUSD"]),
    );
  });

  it("ticks on a timer when not manual, with an injected clock, and stops", async () => {
    // The interval runs on the test's clock: each advance is exactly that many steps, and after stop
    // no timer is left to tick.
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    onTestFinished(() => void vi.useRealTimers());
    let now = WEDNESDAY;
    const feed = new SimulatorFeed({ seed: 1, intervalMs: 5, clock: () => now });
    const ticks: Tick[] = [];
    await feed.start([BTC], (t) => {
      ticks.push(t);
      now += 1000;
    });
    expect(ticks).toHaveLength(1);
    vi.advanceTimersByTime(15);
    expect(ticks).toHaveLength(4);
    await feed.stop();
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(1000);
    expect(ticks).toHaveLength(4);
  });
});

describe("SimulatorFeed history", () => {
  const histories = new Map<string, HistorySeed>();
  const history = (i: FeedInstrument): HistorySeed => {
    const h = histories.get(i.symbol);
    if (!h) {
      throw new Error(`no history for ${i.symbol}`);
    }
    return h;
  };
  beforeAll(async () => {
    const feed = new SimulatorFeed({ seed: "history" });
    for (const i of ALL) {
      histories.set(i.symbol, await feed.history(i, WEDNESDAY + 30_000));
    }
  }, 60_000);

  it("is deterministic for a seed and now, and differs between seeds", async () => {
    const again = await new SimulatorFeed({ seed: "history" }).history(BTC, WEDNESDAY + 30_000);
    expect(again).toEqual(history(BTC));
    const other = await new SimulatorFeed({ seed: "else" }).history(BTC, WEDNESDAY + 30_000);
    expect(other["1m"].map((c) => c.close)).not.toEqual(again["1m"].map((c) => c.close));
  });

  it("fills aligned, non-overlapping sections that end before now (24/7 market)", async () => {
    const seed = history(BTC);
    const ranges = historyRanges(WEDNESDAY + 30_000);
    expect(seed["1m"]).toHaveLength((ranges["1m"].to - ranges["1m"].from) / 60_000);
    // The hourly section reaches back 30 days and then to the start of that UTC day.
    expect(ranges["1h"].to - ranges["1h"].from).toBe((30 * 24 + 15) * 3_600_000);
    expect(seed["1h"]).toHaveLength(30 * 24 + 15);
    expect(seed["1d"]).toHaveLength(730);
    for (const period of ["1d", "1h", "1m"] as const) {
      const candles = seed[period];
      expect(candles[0]?.time).toBe(ranges[period].from);
      expect(candles.every((c, k) => k === 0 || c.time > (candles[k - 1]?.time ?? 0))).toBe(true);
      expect((candles[candles.length - 1]?.time ?? 0) < ranges[period].to).toBe(true);
    }
    expect(seed["1m"][seed["1m"].length - 1]?.time).toBe(WEDNESDAY - 60_000);
  });

  it("is OHLC-consistent, on the tick grid, continuous, and ends at the reference price", async () => {
    for (const i of [BTC, DOGE, EURUSD, AAPL, JPN225]) {
      const seed = history(i);
      const all = [...seed["1d"], ...seed["1h"], ...seed["1m"]];
      expect(inconsistent(all, i.tickSize), i.symbol).toEqual([]);
      expect(new MoneyDecimal(all[all.length - 1]?.close ?? "0").eq(i.referencePrice), i.symbol).toBe(true);
      // Within a section of a 24/7 market every open is the previous close.
      if (i === BTC) {
        expect(seed["1m"].every((c, k) => k === 0 || c.open === seed["1m"][k - 1]?.close)).toBe(true);
      }
    }
  });

  it("has no candles while the market is closed: no stock candles at weekends or at night", async () => {
    const seed = history(AAPL);
    const weekday = (t: number) => new Date(t).getUTCDay();
    for (const period of ["1d", "1h", "1m"] as const) {
      expect(seed[period].length).toBeGreaterThan(0);
      expect(seed[period].filter((c) => weekday(c.time) === 0 || weekday(c.time) === 6)).toEqual([]);
    }
    expect(seed["1m"].every((c) => isMarketOpen(AAPL.tradingHours, new Date(c.time)))).toBe(true);
    // A regular session is 6.5 hours: 390 minutes of the last 24 hours, 7 hourly candles a day.
    expect(seed["1m"]).toHaveLength(390);
    // Every full day has 7 hourly candles, across the boundary of the hourly and minute sections too.
    const hoursPerDay = new Map<number, number>();
    const today = Math.floor(WEDNESDAY / 86_400_000);
    for (const c of seedCandles(seed, "1h").filter((h) => h.time < today * 86_400_000)) {
      const day = Math.floor(c.time / 86_400_000);
      hoursPerDay.set(day, (hoursPerDay.get(day) ?? 0) + 1);
    }
    expect(new Set(hoursPerDay.values())).toEqual(new Set([7]));
    // About 252 trading days in the two years of daily candles (no holidays are modelled: 5 × 52 + 1).
    expect(seed["1d"].length).toBeGreaterThanOrEqual(520);
    expect(seed["1d"].length).toBeLessThanOrEqual(523);
  });

  it("keeps forex's short Sunday bar and no Saturday", async () => {
    const seed = history(EURUSD);
    const days = seed["1d"].map((c) => new Date(c.time).getUTCDay());
    expect(days).toContain(0);
    expect(days).not.toContain(6);
  });

  it("rolls up into every chart period with consistent candles", async () => {
    const seed = history(AAPL);
    for (const period of ["5m", "1h", "4h", "1d", "1w", "1M", "1y"] as const) {
      const candles = seedCandles(seed, period);
      expect(candles.length, period).toBeGreaterThan(0);
      expect(inconsistent(candles, AAPL.tickSize), period).toEqual([]);
    }
    expect(seedCandles(seed, "1y").length).toBeGreaterThanOrEqual(2);
  });
});
