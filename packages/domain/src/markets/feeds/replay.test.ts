import { type Candle, periodStart } from "@northstar/shared/markets";
import { MoneyDecimal } from "@northstar/shared/money";
import { beforeAll, describe, expect, it } from "vitest";
import { marketDataDir, requireMarketData } from "../../test-support/index.ts";
import { aggregateCandles, CandleBuilder } from "../candles/aggregate.ts";
import { SEED_INSTRUMENTS } from "../catalogue.seed.ts";
import { parseCandlesCsv, readCandlesCsv } from "./csv.ts";
import { normaliseDecimal } from "./grid.ts";
import { ReplayFeed, type ReplayOptions, tickPath } from "./replay.ts";
import type { FeedInstrument, Tick } from "./types.ts";

const DATA = marketDataDir();
const MINUTE = 60_000;
const DAY = 1440 * MINUTE;
const WEEK = 7 * DAY;

const instrument = (symbol: string): FeedInstrument => {
  const row = SEED_INSTRUMENTS.find((i) => i.symbol === symbol);
  if (!row) {
    throw new Error(symbol);
  }
  return row;
};
const BTC = instrument("BTCUSDT");
const EURUSD = instrument("EURUSD");

const plain = (c: Candle): Candle => ({
  time: c.time,
  open: normaliseDecimal(c.open),
  high: normaliseDecimal(c.high),
  low: normaliseDecimal(c.low),
  close: normaliseDecimal(c.close),
  volume: normaliseDecimal(c.volume),
});

/** Rebuilds 1-minute candles from ticks, as the worker does. */
function rebuild(ticks: Tick[], shift = 0): Candle[] {
  const builder = new CandleBuilder();
  const candles = [...ticks.flatMap((t) => builder.add(t)), ...builder.flush()].map((c) => c.candle);
  return candles.map((c) => ({ ...c, time: c.time - shift }));
}

async function load(symbol: string, period = "1m"): Promise<Candle[]> {
  return (await readCandlesCsv(`${DATA}/${symbol}_${period}.csv`)) ?? [];
}

/** A manual replay whose clock stands at `now`; `step` is then called with later times. */
async function replay(instruments: FeedInstrument[], now: number, options: Partial<ReplayOptions> = {}) {
  const feed = new ReplayFeed({ dir: DATA, manual: true, clock: () => now, ...options });
  const received: Tick[] = [];
  return { feed, received, start: () => feed.start(instruments, (t) => received.push(t)) };
}

describe("tickPath", () => {
  it("goes open, low, high, close on an up candle and open, high, low, close on a down one", () => {
    const up = { time: 0, open: "10", high: "12", low: "9", close: "11", volume: "4" };
    expect(tickPath(up).map((t) => t.price)).toEqual(["10", "9", "12", "11"]);
    expect(tickPath({ ...up, close: "9.5" }).map((t) => t.price)).toEqual(["10", "12", "9", "9.5"]);
  });

  it("splits volume exactly at the recorded precision and keeps price strings untouched", () => {
    const path = tickPath({
      time: 0,
      open: "1.38780",
      high: "1.38817",
      low: "1.38780",
      close: "1.38803",
      volume: "121.330795",
    });
    expect(path.map((t) => t.price)).toEqual(["1.38780", "1.38780", "1.38817", "1.38803"]);
    expect(path.map((t) => t.volume)).toEqual(["30.332698", "30.332698", "30.332698", "30.332701"]);
    const tiny = tickPath({ time: 0, open: "1", high: "1", low: "1", close: "1", volume: "0.000003" });
    expect(tiny.map((t) => t.volume)).toEqual(["0", "0", "0", "0.000003"]);
    expect(
      tickPath({ time: 0, open: "1", high: "1", low: "1", close: "1", volume: "0" }).map((t) => t.volume),
    ).toEqual(["0", "0", "0", "0"]);
  });
});

describe("parseCandlesCsv", () => {
  it("reads rows and keeps strings; rejects a wrong header or a malformed row", () => {
    const csv = "time,open,high,low,close,volume\n2014-05-04T21:00:00Z,1.38817,1.38817,1.38780,1.38803,0\n";
    expect(parseCandlesCsv(csv)).toEqual([
      {
        time: Date.parse("2014-05-04T21:00:00Z"),
        open: "1.38817",
        high: "1.38817",
        low: "1.38780",
        close: "1.38803",
        volume: "0",
      },
    ]);
    expect(() => parseCandlesCsv("t,o,h,l,c,v\n")).toThrow(/header/);
    expect(() => parseCandlesCsv("time,open,high,low,close,volume\nnot-a-date,1,1,1,1,0\n")).toThrow(
      /:2: malformed/,
    );
  });
});

describe("ReplayFeed without recordings", () => {
  it("runs without the folder: empty history and no ticks, no error", async () => {
    const feed = new ReplayFeed({ dir: "/nonexistent/marketdata", manual: true, clock: () => 0 });
    expect(await feed.history(BTC, Date.now())).toEqual({ "1d": [], "1h": [], "1m": [] });
    await feed.start([BTC], () => {});
    expect(feed.step(Date.now())).toEqual([]);
  });
});

describe("ReplayFeed on the recorded candles (shared/marketdata)", () => {
  beforeAll(() => {
    requireMarketData(
      ["BTCUSDT_1m.csv", "BTCUSDT_1h.csv", "EURUSD_1m.csv", "SPX_1m.csv", "SPY_1h.csv", "SPY_1d.csv"],
      DATA,
    );
  });

  it.each([
    ["BTCUSDT", BTC, DAY],
    ["EURUSD", EURUSD, WEEK],
  ] as const)("reproduces every recorded %s 1m candle through CandleBuilder", async (symbol, inst, unit) => {
    const recorded = await load(symbol);
    const first = recorded[0]?.time ?? 0;
    // Starting whole weeks after the recording's first minute, with no lead, replays it from its start.
    const now = first + 600 * WEEK;
    const r = await replay([inst], now, { loop: false, leadMs: 0, maxLagMs: Number.POSITIVE_INFINITY });
    await r.start();
    const ticks = r.feed.step(now + 2 * WEEK);
    expect(ticks).toEqual(r.received);
    expect(ticks).toHaveLength(recorded.length * 4);
    expect(ticks.every((t, i) => i === 0 || t.time >= (ticks[i - 1]?.time ?? 0))).toBe(true);
    expect((now - first) % unit).toBe(0);
    expect(rebuild(ticks, now - first)).toEqual(recorded.map(plain));
    // Prices are the recorded strings, trailing zeros and all; volumes add up exactly.
    const recordedPrices = new Set(recorded.flatMap((c) => [c.open, c.high, c.low, c.close]));
    expect(ticks.every((t) => recordedPrices.has(t.price))).toBe(true);
    const sum = (values: string[]) => values.reduce((s, v) => s.plus(v), new MoneyDecimal(0)).toFixed();
    expect(sum(ticks.map((t) => t.volume))).toBe(sum(recorded.map((c) => c.volume)));
  });

  it("EURUSD's irregular gaps stay gaps, on the recorded weekdays and times of day", async () => {
    const recorded = await load("EURUSD");
    const steps = recorded.filter((c, i) => i > 0 && c.time - (recorded[i - 1]?.time ?? 0) > MINUTE).length;
    expect(steps).toBe(188); // SOURCES.md: 188 irregular steps in the EURUSD 1m file
    const now = Date.parse("2026-11-18T09:00:00Z");
    const r = await replay([EURUSD], now, { loop: false, maxLagMs: Number.POSITIVE_INFINITY });
    const seed = await r.feed.history(EURUSD, now);
    await r.start();
    const ticks = r.feed.step(now + 2 * WEEK);
    const candles = [...seed["1m"], ...rebuild(ticks)];
    // A one-week recording with sessions plays from where "now" falls in its week: the shift is whole weeks.
    const first = recorded[0]?.time ?? 0;
    const shift = Math.floor((now - first) / WEEK) * WEEK;
    expect(candles.length).toBeGreaterThan(1000);
    const byTime = new Map(recorded.map((c) => [c.time + shift, plain({ ...c, time: c.time + shift })]));
    for (const c of candles) {
      expect(plain(c)).toEqual(byTime.get(c.time));
    }
    const weekday = (t: number) => new Date(t).getUTCDay();
    expect(candles.every((c) => weekday(c.time) === weekday(c.time - shift))).toBe(true);
  });

  it("seeds history from the recording before the replay start, and the live ticks continue it seamlessly", async () => {
    const recorded = await load("BTCUSDT");
    const hours = await load("BTCUSDT", "1h");
    const first = recorded[0]?.time ?? 0;
    const now = Date.parse("2026-11-18T10:17:30Z");
    const r = await replay([BTC], now);
    const seed = await r.feed.history(BTC, now);
    // 24 h of minutes (from an hour boundary) up to the current minute, hours for 30 days before that.
    const lastMinute = seed["1m"][seed["1m"].length - 1];
    expect(lastMinute?.time).toBe(periodStart("1m", now) - MINUTE);
    expect(seed["1m"].length).toBeGreaterThanOrEqual(24 * 60);
    expect(seed["1h"].length).toBeGreaterThanOrEqual(30 * 24);
    // 24/7: the shift is whole days, putting "now" 1.5 to 2.5 days into the recording (the default lead is
    // half of the 3-day loop).
    const shift = Math.floor((now - first - 1.5 * DAY) / DAY) * DAY;
    expect(now - shift - first).toBeGreaterThanOrEqual(1.5 * DAY);
    expect(now - shift - first).toBeLessThan(2.5 * DAY);
    // The recorded daily candles (2017–2018) are outside the window; days the hourly file covers
    // (from 2020-12-01) are rolled up from it.
    const hourFrom = seed["1h"][0]?.time ?? 0;
    expect(seed["1d"]).toEqual(
      aggregateCandles(
        hours.filter((c) => c.time + shift < hourFrom),
        "1d",
      ).map((c) => ({ ...c, time: c.time + shift })),
    );
    expect(seed["1d"][0]?.time).toBe(Date.parse("2020-12-01T00:00:00Z") + shift);
    expect(seed["1d"].length).toBeGreaterThan(100);
    const minuteFrom = seed["1m"][0]?.time ?? 0;
    expect(minuteFrom % 3_600_000).toBe(0);
    expect(seed["1m"]).toEqual(
      recorded
        .filter((c) => c.time + shift >= minuteFrom && c.time + shift <= (lastMinute?.time ?? 0))
        .map((c) => ({ ...c, time: c.time + shift })),
    );
    const hourly = new Map(hours.map((c) => [c.time + shift, c]));
    expect(
      seed["1h"].every(
        (c) => JSON.stringify(hourly.get(c.time)) === JSON.stringify({ ...c, time: c.time - shift }),
      ),
    ).toBe(true);
    expect((seed["1h"][seed["1h"].length - 1]?.time ?? 0) + 3_600_000).toBe(seed["1m"][0]?.time);

    await r.start();
    const ticks: Tick[] = [];
    for (let t = now; t <= now + 2 * 3_600_000; t += 1000) {
      ticks.push(...r.feed.step(t));
    }
    // The minute in progress at the end is partial: compare the complete ones.
    const end = periodStart("1m", now + 2 * 3_600_000);
    const live = rebuild(ticks).filter((c) => c.time < end);
    expect(live[0]?.time).toBe((lastMinute?.time ?? 0) + MINUTE);
    const expected = recorded.filter((c) => c.time + shift > (lastMinute?.time ?? 0) && c.time + shift < end);
    expect(expected).toHaveLength(120);
    expect(live).toEqual(expected.map((c) => plain({ ...c, time: c.time + shift })));
    // Ticks come no later than their time: the one at `now` itself is the first.
    expect(ticks.every((t) => t.time <= now + 2 * 3_600_000)).toBe(true);
  });

  it("loops: after a whole number of days the recording starts over, times still increasing", async () => {
    const recorded = await load("BTCUSDT");
    const now = Date.parse("2026-11-18T10:17:30Z");
    const r = await replay([BTC], now, { maxLagMs: Number.POSITIVE_INFINITY });
    await r.start();
    const ticks = r.feed.step(now + 4 * DAY);
    expect(ticks.every((t, i) => i === 0 || t.time >= (ticks[i - 1]?.time ?? 0))).toBe(true);
    const seam = ticks.findIndex(
      (t, i) =>
        i > 0 &&
        t.price === recorded[0]?.open &&
        ticks[i - 1]?.price !== t.price &&
        (t.time - (recorded[0]?.time ?? 0)) % DAY === 0,
    );
    expect(seam).toBeGreaterThan(0);
    // 3 days 20 h of recording loop every 3 whole days: no silent tail, the seam on the same clock time.
    const candles = rebuild(ticks);
    expect(candles.every((c, i) => i === 0 || c.time - (candles[i - 1]?.time ?? 0) === MINUTE)).toBe(true);
  });

  it("emits recorded ticks only once they are due, at the configured speed", async () => {
    const now = Date.parse("2026-11-18T10:17:00Z");
    const r = await replay([BTC], now, { speed: 60 });
    await r.start();
    const first = r.feed.step(now);
    expect(first).toHaveLength(1); // the current minute's open
    // One wall second at 60× is one recorded minute: the rest of this candle and the next open.
    expect(r.feed.step(now + 1000)).toHaveLength(4);
    expect(r.feed.step(now + 1000)).toEqual([]);
  });

  it("maps catalogue symbols to recordings (SPX500 → SPX) and replays hourly recordings when no 1m exists", async () => {
    const spx = instrument("SPX500");
    const recorded = await load("SPX");
    const first = recorded[0]?.time ?? 0; // Monday 2021-01-04 14:30Z
    const now = first + 600 * WEEK + 3 * 3_600_000;
    const r = await replay([spx, instrument("SPY")], now, { aliases: { SPX500: "SPX" }, leadMs: 0 });
    const seed = await r.feed.history(spx, now);
    expect(seed["1m"]).toHaveLength(180);
    expect(seed["1m"][0]?.open).toBe(recorded[0]?.open);
    expect(new Date(seed["1m"][0]?.time ?? 0).getUTCDay()).toBe(1);
    await r.start();
    const ticks = r.feed.step(now);
    expect(ticks.filter((t) => t.symbol === "SPX500").map((t) => t.price)).toEqual(
      tickPath(recorded[180] as Candle)
        .slice(0, 1)
        .map((t) => t.price),
    );
    // Provenance: the recorded file, the recording's name, the recorded time; received at the step.
    expect(ticks.find((t) => t.symbol === "SPX500")).toMatchObject({
      source: "replay:SPX_1m.csv",
      sourceSymbol: "SPX",
      sourceTime: recorded[180]?.time,
      receivedAt: now,
    });
    // SPY has hourly and daily recordings only: hours reach up to the replay start, 4 ticks an hour.
    const spyNow = Date.parse("2026-11-18T15:20:00Z");
    const spyReplay = await replay([instrument("SPY")], spyNow);
    const spy = await spyReplay.feed.history(instrument("SPY"), spyNow);
    expect(spy["1m"]).toEqual([]);
    expect(spy["1h"].length).toBeGreaterThan(100);
    expect(spy["1d"].length).toBeGreaterThan(400);
    await spyReplay.start();
    const spyTicks: Tick[] = [];
    for (let t = spyNow; t < spyNow + WEEK; t += 60_000) {
      spyTicks.push(...spyReplay.feed.step(t));
    }
    expect(spyTicks.length).toBeGreaterThan(4 * 7 * 3);
    expect(spyTicks.every((t) => t.time % (15 * MINUTE) === 0)).toBe(true);
    const lastHour = spy["1h"][spy["1h"].length - 1]?.time ?? 0;
    expect(Math.min(...spyTicks.map((t) => t.time))).toBeGreaterThan(lastHour);
  });
});
