import { describe, expect, it } from "vitest";
import { SEED_INSTRUMENTS } from "../catalogue.seed.ts";
import { createFeed } from "./factory.ts";
import { LiveFeed } from "./live.ts";
import type { FeedInstrument, Tick } from "./types.ts";
import { chartRowToCandle, createYahooClient, quoteToTick, YahooFeed } from "./yahoo.ts";
import { recordedYahoo } from "./yahoo-recorded.ts";

const instrument = (symbol: string): FeedInstrument => {
  const row = SEED_INSTRUMENTS.find((i) => i.symbol === symbol);
  if (!row) {
    throw new Error(symbol);
  }
  return row;
};
const EURUSD = instrument("EURUSD");
const XAUUSD = instrument("XAUUSD");
const AAPL = instrument("AAPL");
/** An index the recordings hold (Cboe's Apple volatility index), mapped like the catalogue's indices. */
const VXAPL: FeedInstrument = {
  ...instrument("SPX500"),
  symbol: "VXAPL",
  sourceSymbol: "^VXAPL",
  tickSize: "0.01",
};
const NOW = Date.parse("2025-02-17T10:55:00Z");

async function yahooFeed(recorded = recordedYahoo(), clock = () => NOW) {
  const client = await createYahooClient({ fetch: recorded.fetch });
  return { recorded, feed: new YahooFeed({ client, manual: true, clock }) };
}

describe("the catalogue's source mapping", () => {
  it("maps every seeded instrument to a live source, crypto to ccxt and the rest to Yahoo", () => {
    const mapping = Object.fromEntries(
      SEED_INSTRUMENTS.map((i) => [i.symbol, [i.feedSource, i.sourceSymbol]]),
    );
    expect(mapping).toMatchObject({
      BTCUSDT: ["ccxt", "BTC/USDT"],
      EURUSD: ["yahoo", "EURUSD=X"],
      USDJPY: ["yahoo", "USDJPY=X"],
      XAUUSD: ["yahoo", "GC=F"],
      USOIL: ["yahoo", "CL=F"],
      UKOIL: ["yahoo", "BZ=F"],
      NGAS: ["yahoo", "NG=F"],
      SPX500: ["yahoo", "^GSPC"],
      AAPL: ["yahoo", "AAPL"],
      "BRK.B": ["yahoo", "BRK-B"],
      SPY: ["yahoo", "SPY"],
      // Not listed by the seeded exchange: no live source, view-only for real accounts.
      XMRUSDT: [null, null],
    });
    const unmapped = SEED_INSTRUMENTS.filter((i) => !i.feedSource).map((i) => i.symbol);
    expect(unmapped).toEqual(["XMRUSDT"]);
  });
});

describe("Yahoo quotes and charts (recorded responses)", () => {
  it("maps a quote to a tick timed by the source, on our grid, and refuses one without price or time", () => {
    const tick = quoteToTick(
      { symbol: "EURUSD=X", regularMarketPrice: 1.0489877, regularMarketTime: new Date(1739789683000) },
      EURUSD,
      NOW,
    );
    expect(tick).toEqual({
      symbol: "EURUSD",
      price: "1.04899",
      volume: "0",
      time: 1739789683000,
      source: "yahoo",
      sourceSymbol: "EURUSD=X",
      sourceTime: 1739789683000,
      receivedAt: NOW,
    });
    expect(quoteToTick({ symbol: "EURUSD=X", regularMarketPrice: 1.04 }, EURUSD, NOW)).toBeNull();
    expect(quoteToTick({ symbol: "EURUSD=X", regularMarketTime: 1739789683 }, EURUSD, NOW)).toBeNull();
    expect(
      chartRowToCandle({ date: new Date(0), open: null, high: 1, low: 1, close: 1, volume: 0 }, "0.01"),
    ).toBeNull();
  });

  it("polls forex, a future, a stock and an index in one request through the real library", async () => {
    const { recorded, feed } = await yahooFeed();
    const received: Tick[] = [];
    await feed.start([EURUSD, XAUUSD, AAPL, VXAPL, instrument("BTCUSDT")], (t) => received.push(t));
    const ticks = await feed.poll();
    expect(
      ticks.map((t) => [t.symbol, t.price, t.sourceSymbol, new Date(t.sourceTime).toISOString()]),
    ).toEqual([
      ["EURUSD", "1.04899", "EURUSD=X", "2025-02-17T10:54:43.000Z"],
      ["XAUUSD", "2910.3", "GC=F", "2025-02-17T10:44:51.000Z"],
      ["AAPL", "244.6", "AAPL", "2025-02-14T21:00:00.000Z"],
      ["VXAPL", "23.77", "^VXAPL", "2025-02-14T21:02:02.000Z"],
    ]);
    expect(received).toEqual(ticks);
    expect(ticks.every((t) => t.source === "yahoo" && t.receivedAt === NOW && t.time === t.sourceTime)).toBe(
      true,
    );
    // The library's crumb handshake, then one quote request for every mapped symbol (crypto is not Yahoo's).
    const quoteUrl = new URL(recorded.requests.at(-1) ?? "");
    expect(quoteUrl.pathname).toBe("/v7/finance/quote");
    expect(quoteUrl.searchParams.get("symbols")).toBe("EURUSD=X,GC=F,AAPL,^VXAPL");
    expect(quoteUrl.searchParams.get("crumb")).toBe("haT3oykhHqZ");
  });

  it("does not pass an unchanged quote on as a fresh price", async () => {
    const { recorded, feed } = await yahooFeed();
    await feed.start([EURUSD, XAUUSD], () => {});
    expect(await feed.poll()).toHaveLength(2);
    // The source answers again with the same source times: nothing new, nothing emitted.
    expect(await feed.poll()).toEqual([]);
    expect(recorded.requests.filter((u) => u.includes("/v7/finance/quote"))).toHaveLength(2);
  });

  it("seeds daily history from the chart endpoint, on our grid", async () => {
    const { recorded, feed } = await yahooFeed();
    // At midnight with no minute or hour sections, the daily section is exactly 1–3 January 2020.
    const now = Date.parse("2020-01-04T00:00:00Z");
    const span = { history: { minuteHours: 0, hourDays: 0, dayDays: 3 } };
    const client = await createYahooClient({ fetch: recorded.fetch });
    const daily = new YahooFeed({ client, manual: true, ...span });
    const eur = await daily.history(EURUSD, now);
    expect(eur["1m"]).toEqual([]);
    expect(eur["1h"]).toEqual([]);
    expect(eur["1d"]).toEqual([
      {
        time: 1577836800000,
        open: "1.12208",
        high: "1.12284",
        low: "1.11595",
        close: "1.12208",
        volume: "0",
      },
      {
        time: 1577923200000,
        open: "1.12189",
        high: "1.12271",
        low: "1.11668",
        close: "1.12208",
        volume: "0",
      },
      {
        time: 1578009600000,
        open: "1.11708",
        high: "1.11807",
        low: "1.11257",
        close: "1.11714",
        volume: "0",
      },
    ]);
    const gold = await daily.history(XAUUSD, now);
    expect(gold["1d"]).toEqual([
      { time: 1577941200000, open: "1518.1", high: "1528.7", low: "1518", close: "1524.5", volume: "214" },
    ]);
    const chartUrl = new URL(recorded.requests.find((u) => u.includes("/v8/finance/chart/EURUSD")) ?? "");
    expect(chartUrl.searchParams.get("period1")).toBe("1577836800");
    expect(chartUrl.searchParams.get("interval")).toBe("1d");
    // An instrument without a Yahoo mapping has no Yahoo history.
    expect(await feed.history(instrument("BTCUSDT"), now)).toEqual({ "1d": [], "1h": [], "1m": [] });
  });
});

describe("a failing or stale source pauses, and recovers", () => {
  it("counts a source stale after the allowed gap without a new price, failing or not, and live again on one", async () => {
    let now = NOW;
    const recorded = recordedYahoo();
    const client = await createYahooClient({ fetch: recorded.fetch });
    const yahoo = new YahooFeed({ client, manual: true, clock: () => now });
    const live = new LiveFeed({ yahoo }, NOW);
    const received: Tick[] = [];
    await live.start([EURUSD, XAUUSD, instrument("BTCUSDT")], (t) => received.push(t));
    const gap = 30_000;
    // Silent from the start: stale once the gap has passed, since the start.
    expect(live.health.status(NOW + gap, gap)).toEqual([
      { source: "yahoo", label: null, staleSince: null, lastSourceTime: null, lastError: null },
    ]);
    expect(live.health.status(NOW + gap + 1, gap)[0]?.staleSince).toBe(NOW);

    // A fresh price: live.
    now = NOW + 1000;
    await yahoo.poll();
    expect(received).toHaveLength(2);
    expect(live.health.status(now, gap)[0]).toMatchObject({ label: "yahoo", staleSince: null });

    // The source keeps answering with the same quotes: no tick, and stale after the gap since the last new one.
    now = NOW + 20_000;
    expect(await yahoo.poll()).toEqual([]);
    expect(live.health.status(now, gap)[0]?.staleSince).toBeNull();
    expect(live.health.status(NOW + 1000 + gap + 1, gap)[0]?.staleSince).toBe(NOW + 1000);

    // The network fails: the failure is recorded, still stale since the last new price.
    recorded.down = true;
    await expect(yahoo.poll()).rejects.toThrow();
    live.health.failed("yahoo", new Error("fetch failed"));
    expect(live.health.status(NOW + 60_000, gap)[0]).toMatchObject({
      staleSince: NOW + 1000,
      lastError: "fetch failed",
    });
    expect(received).toHaveLength(2);

    // Recovery: a price with a newer source time makes the source live again.
    recorded.down = false;
    live.health.sawTick("yahoo", {
      ...(received[0] as Tick),
      sourceTime: Date.parse("2025-02-17T10:56:00Z"),
      receivedAt: NOW + 61_000,
    });
    expect(live.health.status(NOW + 61_000, gap)[0]).toMatchObject({ staleSince: null, lastError: null });
    await live.stop();
  });

  it("routes each instrument to its mapped source; one that cannot start pauses only its own markets", async () => {
    const recorded = recordedYahoo();
    const feed = createFeed({
      kind: "live",
      exchange: "no-such-exchange",
      yahooClient: () => createYahooClient({ fetch: recorded.fetch }),
      yahooIntervalMs: 60_000,
      startedAt: NOW,
      onError: () => {},
    });
    expect(feed).toBeInstanceOf(LiveFeed);
    const live = feed as LiveFeed;
    const received: Tick[] = [];
    const started: string[] = [];
    const errors: string[] = [];
    const quiet = new LiveFeed(
      {
        ccxt: {
          name: "ccxt",
          history: async () => ({ "1d": [], "1h": [], "1m": [] }),
          start: async () => {
            throw new Error("exchange unreachable");
          },
          stop: async () => {},
        },
        yahoo: {
          name: "yahoo",
          history: async () => ({ "1d": [], "1h": [], "1m": [] }),
          start: async (instruments) => {
            started.push(...instruments.map((i) => i.symbol));
          },
          stop: async () => {},
        },
      },
      NOW,
      (source, error) => errors.push(`${source}: ${(error as Error).message}`),
    );
    await quiet.start([EURUSD, instrument("BTCUSDT"), instrument("XMRUSDT"), AAPL], (t) => received.push(t));
    expect(started).toEqual(["EURUSD", "AAPL"]);
    expect(errors).toEqual(["ccxt: exchange unreachable"]);
    expect(quiet.health.status(NOW + 1, 0).map((s) => [s.source, s.lastError])).toEqual([
      ["ccxt", "exchange unreachable"],
      ["yahoo", null],
    ]);
    expect(live.sources()).toEqual(["ccxt", "yahoo"]);
    await live.stop();
  });
});
