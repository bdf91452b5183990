import { CANDLE_PERIODS, type Candle, type CandlePeriod, ROLLUP_SOURCE } from "@northstar/shared/markets";
import { beforeAll, describe, expect, it } from "vitest";
import { marketDataDir, requireMarketData } from "../../test-support/index.ts";
import { readCandlesCsv } from "../feeds/csv.ts";
import { normaliseDecimal } from "../feeds/grid.ts";
import { Random } from "../feeds/random.ts";
import { aggregateCandles, CandleBuilder } from "./aggregate.ts";

const MINUTE = 60_000;
const DAY = 1440 * MINUTE;
const utc = (iso: string) => Date.parse(iso);

/**
 * 1-minute candles with prices in whole cents and volumes in whole micro-units, kept as integers too,
 * so the test can compute the expected aggregates with plain integer arithmetic.
 */
interface RawMinute {
  time: number;
  o: number;
  h: number;
  l: number;
  c: number;
  v: bigint;
}

const cents = (n: number) => `${Math.floor(n / 100)}.${String(n % 100).padStart(2, "0")}`;
const micros = (n: bigint) =>
  normaliseDecimal(`${n / 1_000_000n}.${String(n % 1_000_000n).padStart(6, "0")}`);
const toCandle = (m: RawMinute): Candle => ({
  time: m.time,
  open: cents(m.o),
  high: cents(m.h),
  low: cents(m.l),
  close: cents(m.c),
  volume: micros(m.v),
});

function minutesAt(times: number[], seed = "agg"): RawMinute[] {
  const random = new Random(seed);
  let price = 5_000_000; // 50,000.00
  return times.map((time) => {
    const o = price;
    const c = Math.max(100, o + Math.round(random.normal() * 3000));
    const h = Math.max(o, c) + Math.floor(random.uniform() * 2000);
    const l = Math.max(1, Math.min(o, c) - Math.floor(random.uniform() * 2000));
    price = c;
    return { time, o, h, l, c, v: BigInt(Math.floor(random.uniform() * 5e9)) };
  });
}

/** Bucket start computed from calendar fields, independently of periodStart. */
function bucketOf(period: CandlePeriod, time: number): number {
  const d = new Date(time);
  const [y, mo, day, h, mi] = [
    d.getUTCFullYear(),
    d.getUTCMonth(),
    d.getUTCDate(),
    d.getUTCHours(),
    d.getUTCMinutes(),
  ];
  switch (period) {
    case "1m":
      return Date.UTC(y, mo, day, h, mi);
    case "5m":
      return Date.UTC(y, mo, day, h, mi - (mi % 5));
    case "15m":
      return Date.UTC(y, mo, day, h, mi - (mi % 15));
    case "1h":
      return Date.UTC(y, mo, day, h);
    case "4h":
      return Date.UTC(y, mo, day, h - (h % 4));
    case "1d":
      return Date.UTC(y, mo, day);
    case "1w": {
      const sinceMonday = (d.getUTCDay() + 6) % 7;
      return Date.UTC(y, mo, day - sinceMonday);
    }
    case "1M":
      return Date.UTC(y, mo, 1);
    case "1y":
      return Date.UTC(y, 0, 1);
  }
}

function expected(minutes: RawMinute[], period: CandlePeriod): Candle[] {
  const groups = new Map<number, RawMinute[]>();
  for (const m of minutes) {
    const key = bucketOf(period, m.time);
    const group = groups.get(key);
    if (group) {
      group.push(m);
    } else {
      groups.set(key, [m]);
    }
  }
  return [...groups.entries()].map(([time, ms]) => ({
    time,
    open: cents(ms[0]?.o ?? 0),
    high: cents(Math.max(...ms.map((m) => m.h))),
    low: cents(Math.min(...ms.map((m) => m.l))),
    close: cents(ms[ms.length - 1]?.c ?? 0),
    volume: micros(ms.reduce((sum, m) => sum + m.v, 0n)),
  }));
}

/** Aggregated strings are normalised; compare the expectation in the same form. */
const normalised = (candles: Candle[]) =>
  candles.map((c) => ({
    ...c,
    open: normaliseDecimal(c.open),
    high: normaliseDecimal(c.high),
    low: normaliseDecimal(c.low),
    close: normaliseDecimal(c.close),
  }));

describe("aggregateCandles", () => {
  // Sparse minutes over 14 months, crossing weeks, months, a leap-day February and a year end.
  const random = new Random("times");
  const times: number[] = [];
  for (let t = utc("2023-12-01T00:00:00Z"); t < utc("2025-02-01T00:00:00Z"); ) {
    times.push(t);
    t += (1 + Math.floor(random.uniform() * 120)) * MINUTE;
  }
  const minutes = minutesAt(times);
  const candles = minutes.map(toCandle);

  it.each(CANDLE_PERIODS.filter((p) => p !== "1m"))("aggregates 1m candles to %s", (period) => {
    expect(aggregateCandles(candles, period)).toEqual(normalised(expected(minutes, period)));
  });

  it("rolls up through the worker's chain (ROLLUP_SOURCE) to the same candles as directly from 1m", () => {
    const byPeriod = new Map<CandlePeriod, Candle[]>([["1m", candles]]);
    for (const period of CANDLE_PERIODS.filter((p) => p !== "1m") as Exclude<CandlePeriod, "1m">[]) {
      const source = byPeriod.get(ROLLUP_SOURCE[period]) ?? [];
      byPeriod.set(period, aggregateCandles(source, period));
      expect(byPeriod.get(period)).toEqual(aggregateCandles(candles, period));
    }
  });

  it("1m → 1h → 1d equals 1m → 1d", () => {
    expect(aggregateCandles(aggregateCandles(candles, "1h"), "1d")).toEqual(aggregateCandles(candles, "1d"));
  });

  const pair = (a: string, b: string, period: CandlePeriod) =>
    aggregateCandles(minutesAt([utc(a), utc(b)]).map(toCandle), period).map((c) =>
      new Date(c.time).toISOString(),
    );

  it("starts weeks on Monday 00:00 UTC", () => {
    // 2024-03-10 is a Sunday.
    expect(pair("2024-03-10T23:59:00Z", "2024-03-11T00:00:00Z", "1w")).toEqual([
      "2024-03-04T00:00:00.000Z",
      "2024-03-11T00:00:00.000Z",
    ]);
    // Monday 00:00 and Sunday 23:59 of the same week share one candle.
    expect(pair("2024-03-11T00:00:00Z", "2024-03-17T23:59:00Z", "1w")).toEqual(["2024-03-11T00:00:00.000Z"]);
    // A week spanning a year end is one candle, keyed by its Monday in December.
    expect(pair("2024-12-31T12:00:00Z", "2025-01-05T23:59:00Z", "1w")).toEqual(["2024-12-30T00:00:00.000Z"]);
  });

  it("splits months on the calendar, including a leap-year February 29", () => {
    expect(pair("2024-01-31T23:59:00Z", "2024-02-01T00:00:00Z", "1M")).toEqual([
      "2024-01-01T00:00:00.000Z",
      "2024-02-01T00:00:00.000Z",
    ]);
    expect(pair("2024-02-29T23:59:00Z", "2024-03-01T00:00:00Z", "1M")).toEqual([
      "2024-02-01T00:00:00.000Z",
      "2024-03-01T00:00:00.000Z",
    ]);
    expect(pair("2024-02-28T23:59:00Z", "2024-02-29T00:00:00Z", "1M")).toEqual(["2024-02-01T00:00:00.000Z"]);
    expect(pair("2024-02-28T23:59:00Z", "2024-02-29T00:00:00Z", "1d")).toEqual([
      "2024-02-28T00:00:00.000Z",
      "2024-02-29T00:00:00.000Z",
    ]);
  });

  it("splits years on January 1", () => {
    expect(pair("2024-12-31T23:59:00Z", "2025-01-01T00:00:00Z", "1y")).toEqual([
      "2024-01-01T00:00:00.000Z",
      "2025-01-01T00:00:00.000Z",
    ]);
  });

  it("compares prices as decimals, not as strings", () => {
    const mk = (time: number, price: string): Candle => ({
      time,
      open: price,
      high: price,
      low: price,
      close: price,
      volume: "1",
    });
    const [c] = aggregateCandles(
      [mk(0, "9.5"), mk(MINUTE, "10.25"), mk(2 * MINUTE, "100"), mk(3 * MINUTE, "0.000001")],
      "1h",
    );
    expect(c).toEqual({ time: 0, open: "9.5", high: "100", low: "0.000001", close: "0.000001", volume: "4" });
  });

  it("normalises output strings and rejects unsorted input", () => {
    const c: Candle = { time: DAY, open: "1.50", high: "2.000", low: "1.0", close: "1.2500", volume: "0.10" };
    expect(aggregateCandles([c], "1d")).toEqual([
      { time: DAY, open: "1.5", high: "2", low: "1", close: "1.25", volume: "0.1" },
    ]);
    expect(() => aggregateCandles([c, { ...c, time: 0 }], "1d")).toThrow(/not sorted/);
  });
});

const DATA = marketDataDir();

describe("recorded Binance BTCUSDT (shared/marketdata)", () => {
  beforeAll(() => {
    requireMarketData(["BTCUSDT_1m.csv", "BTCUSDT_1h.csv"], DATA);
  });

  it("1m candles aggregated to 1h equal the separately recorded 1h candles", async () => {
    const minutes = (await readCandlesCsv(`${DATA}/BTCUSDT_1m.csv`)) ?? [];
    const hours = new Map(((await readCandlesCsv(`${DATA}/BTCUSDT_1h.csv`)) ?? []).map((c) => [c.time, c]));
    const aggregated = aggregateCandles(minutes, "1h");
    // The 1m slice runs 2021-05-17T00:00Z..2021-05-20T20:40Z: 92 complete hours and a partial last one.
    expect(aggregated).toHaveLength(93);
    const [complete, partial] = [aggregated.slice(0, -1), aggregated[aggregated.length - 1]];
    for (const a of complete) {
      const recorded = hours.get(a.time);
      expect(recorded, new Date(a.time).toISOString()).toBeDefined();
      if (!recorded) {
        continue;
      }
      expect(a, new Date(a.time).toISOString()).toEqual({
        time: recorded.time,
        open: normaliseDecimal(recorded.open),
        high: normaliseDecimal(recorded.high),
        low: normaliseDecimal(recorded.low),
        close: normaliseDecimal(recorded.close),
        volume: normaliseDecimal(recorded.volume),
      });
    }
    // 20:00Z has only 41 recorded minutes: open, high and low already match, close and volume cannot.
    const last = partial && hours.get(partial.time);
    expect(partial?.time).toBe(utc("2021-05-20T20:00:00Z"));
    expect(partial?.open).toBe(last?.open);
    expect(partial?.high).toBe(last?.high);
    expect(partial?.low).toBe(last?.low);
    expect(partial?.close).not.toBe(last?.close);
  });
});

describe("CandleBuilder", () => {
  const tick = (symbol: string, time: string, price: string, volume = "1") => ({
    symbol,
    price,
    volume,
    time: utc(time),
  });

  it("builds a candle per minute and closes it when the next minute starts", () => {
    const b = new CandleBuilder();
    expect(b.add(tick("BTCUSDT", "2024-01-01T00:00:05Z", "100.00"))).toEqual([]);
    b.add(tick("BTCUSDT", "2024-01-01T00:00:20Z", "101.5", "0.5"));
    b.add(tick("BTCUSDT", "2024-01-01T00:00:40Z", "99.25"));
    b.add(tick("BTCUSDT", "2024-01-01T00:00:59.999Z", "100.1", "0.25"));
    expect(b.current("BTCUSDT")).toEqual({
      time: utc("2024-01-01T00:00:00Z"),
      open: "100",
      high: "101.5",
      low: "99.25",
      close: "100.1",
      volume: "2.75",
    });
    const closed = b.add(tick("BTCUSDT", "2024-01-01T00:01:00Z", "100.2"));
    expect(closed).toEqual([
      {
        symbol: "BTCUSDT",
        candle: {
          time: utc("2024-01-01T00:00:00Z"),
          open: "100",
          high: "101.5",
          low: "99.25",
          close: "100.1",
          volume: "2.75",
        },
      },
    ]);
    expect(b.current("BTCUSDT")?.open).toBe("100.2");
  });

  it("keeps symbols apart and closes quiet symbols on closeBefore", () => {
    const b = new CandleBuilder();
    b.add(tick("BTCUSDT", "2024-01-01T00:00:01Z", "100"));
    b.add(tick("EURUSD", "2024-01-01T00:00:02Z", "1.1"));
    expect(b.add(tick("BTCUSDT", "2024-01-01T00:01:00Z", "101")).map((c) => c.symbol)).toEqual(["BTCUSDT"]);
    expect(b.closeBefore(utc("2024-01-01T00:00:59Z"))).toEqual([]);
    expect(b.closeBefore(utc("2024-01-01T00:01:00Z")).map((c) => c.symbol)).toEqual(["EURUSD"]);
    expect(b.current("EURUSD")).toBeUndefined();
    expect(b.flush().map((c) => c.candle.close)).toEqual(["101"]);
  });

  it("drops ticks for a minute already closed instead of reopening it", () => {
    const b = new CandleBuilder();
    b.add(tick("X", "2024-01-01T00:00:01Z", "1"));
    b.add(tick("X", "2024-01-01T00:01:01Z", "2"));
    expect(b.add(tick("X", "2024-01-01T00:00:30Z", "5"))).toEqual([]);
    b.closeBefore(utc("2024-01-01T00:02:00Z"));
    expect(b.add(tick("X", "2024-01-01T00:01:30Z", "7"))).toEqual([]);
    expect(b.current("X")).toBeUndefined();
    expect(b.dropped).toBe(2);
  });
});
