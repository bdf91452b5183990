import { readFileSync } from "node:fs";
import { periodStart } from "@northstar/shared/markets";
import { describe, expect, it, onTestFinished, vi } from "vitest";
import { SEED_INSTRUMENTS } from "../catalogue.seed.ts";
import {
  type CcxtExchange,
  CcxtFeed,
  type CcxtOhlcv,
  type CcxtTicker,
  type CcxtTrade,
  ccxtDecimal,
  createCcxtExchange,
  fromCcxtSymbol,
  ohlcvToCandle,
  tickerToTick,
  toCcxtSymbol,
  tradeToTick,
} from "./ccxt.ts";
import { createFeed } from "./factory.ts";
import { historyRanges } from "./history.ts";
import type { FeedInstrument, Tick } from "./types.ts";

const fixture = <T>(name: string): T =>
  JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), "utf8")) as T;
const TICKERS = fixture<Record<string, CcxtTicker>>("binance-tickers.json");
const OHLCV = fixture<CcxtOhlcv[]>("binance-ohlcv-btc-1m.json");
const KLINES = fixture<CcxtOhlcv[]>("binance-klines-btc-1m-raw.json");
const TRADES = fixture<CcxtTrade[]>("binance-trades-btc.json");
const TRADES_NEXT = fixture<CcxtTrade[]>("binance-trades-btc-next.json");

const instrument = (symbol: string): FeedInstrument => {
  const row = SEED_INSTRUMENTS.find((i) => i.symbol === symbol);
  if (!row) {
    throw new Error(symbol);
  }
  return row;
};
const BTC = instrument("BTCUSDT");
const BNB = instrument("BNBUSDT"); // our tick 0.1, coarser than Binance's 0.01
const DOGE = instrument("DOGEUSDT");
const EURUSD = instrument("EURUSD");
const NOW = Date.parse("2026-11-18T10:16:27.500Z");
const AT = (sourceSymbol: string) => ({ source: "binance", sourceSymbol, receivedAt: NOW });
const BTC_AT = AT("BTC/USDT");

describe("ccxt mapping", () => {
  it("maps symbols both ways", () => {
    expect(toCcxtSymbol(BTC)).toBe("BTC/USDT");
    expect(toCcxtSymbol({ symbol: "DOGEUSDT" })).toBe("DOGE/USDT");
    expect(toCcxtSymbol({ symbol: "ETHBTC" })).toBe("ETH/BTC");
    expect(() => toCcxtSymbol({ symbol: "XYZ" })).toThrow(/quote currency/);
    expect(fromCcxtSymbol("BTC/USDT")).toBe("BTCUSDT");
    expect(fromCcxtSymbol("BTC/USDT:USDT")).toBe("BTCUSDT");
    for (const symbol of Object.keys(TICKERS)) {
      expect(toCcxtSymbol({ symbol: fromCcxtSymbol(symbol) })).toBe(symbol);
    }
  });

  it("turns ccxt numbers back into their decimal strings, preferring the raw exchange string", () => {
    expect(ccxtDecimal(91234.56)?.toFixed()).toBe("91234.56");
    expect(ccxtDecimal(0.15321)?.toFixed()).toBe("0.15321");
    expect(ccxtDecimal(1e-7)?.toFixed()).toBe("0.0000001");
    expect(ccxtDecimal(91234.56, "91234.56000000")?.toFixed()).toBe("91234.56");
    // A raw string that disagrees with the parsed number (a different field) is not used.
    expect(ccxtDecimal(91234.56, "91234.55000000")?.toFixed()).toBe("91234.56");
    expect(ccxtDecimal(undefined)).toBeNull();
    expect(ccxtDecimal(Number.NaN)).toBeNull();
  });

  it("maps fetchTickers output to ticks on our tick grid", () => {
    const ticks = [BTC, instrument("ETHUSDT"), BNB, DOGE].map((i) =>
      tickerToTick(TICKERS[toCcxtSymbol(i)] ?? {}, i, AT(toCcxtSymbol(i))),
    );
    expect(
      ticks.map((t) => t && { symbol: t.symbol, price: t.price, volume: t.volume, time: t.time }),
    ).toEqual([
      { symbol: "BTCUSDT", price: "91234.56", volume: "0", time: 1794996987013 },
      { symbol: "ETHUSDT", price: "3020.11", volume: "0", time: 1794996986871 },
      { symbol: "BNBUSDT", price: "884.6", volume: "0", time: 1794996985502 },
      { symbol: "DOGEUSDT", price: "0.15321", volume: "0", time: 1794996987201 },
    ]);
    // Provenance: the exchange, its symbol, its own time and last trade id, and when we received it.
    expect(ticks[0]).toMatchObject({
      source: "binance",
      sourceSymbol: "BTC/USDT",
      sourceTime: 1794996987013,
      sourceId: "5117964946",
      receivedAt: NOW,
    });
    expect(tickerToTick({ symbol: "BTC/USDT", last: 91234.56 }, BTC, BTC_AT)).toMatchObject({
      time: NOW,
      sourceTime: NOW,
    });
    expect(tickerToTick({ symbol: "BTC/USDT", last: 91234.56 }, BTC, BTC_AT)).not.toHaveProperty("sourceId");
    expect(tickerToTick({ symbol: "BTC/USDT" }, BTC, BTC_AT)).toBeNull();
    expect(tickerToTick({ symbol: "BTC/USDT", last: 0 }, BTC, BTC_AT)).toBeNull();
    // A price that rounds to zero on our grid still costs one tick.
    expect(tickerToTick({ last: 0.004 }, BNB, AT("BNB/USDT"))?.price).toBe("0.1");
  });

  it("maps fetchOHLCV rows and raw Binance klines to the same candles", () => {
    const fromUnified = OHLCV.map((row) => ohlcvToCandle(row, BTC.tickSize));
    const fromRaw = KLINES.map((row) => ohlcvToCandle(row, BTC.tickSize));
    expect(fromRaw).toEqual(fromUnified);
    expect(fromUnified[0]).toEqual({
      time: Date.parse("2026-11-18T10:10:00Z"),
      open: "91180.01",
      high: "91215.5",
      low: "91170",
      close: "91201.13",
      volume: "12.38411",
    });
    // On a coarser grid every price rounds, and high/low stay the extremes.
    expect(ohlcvToCandle(OHLCV[2] ?? [], "1")).toEqual({
      time: 1794996720000,
      open: "91240",
      high: "91262",
      low: "91202",
      close: "91206",
      volume: "15.02834",
    });
    expect(ohlcvToCandle([1794996720000, undefined, 1, 1, 1, 1], "1")).toBeNull();
  });

  it("maps trades to ticks with their amounts as volume", () => {
    const origin = { source: "binance", sourceSymbol: "BTC/USDT", sourceTime: 0, receivedAt: NOW };
    expect(TRADES.map((t) => tradeToTick(t, BTC, BTC_AT))).toEqual(
      [
        { ...origin, symbol: "BTCUSDT", price: "91234.55", volume: "0.00412", time: 1794996986544 },
        { ...origin, symbol: "BTCUSDT", price: "91234.5", volume: "0.15", time: 1794996986544 },
        { ...origin, symbol: "BTCUSDT", price: "91234.56", volume: "0.00731", time: 1794996987013 },
      ].map((t, i) => ({ ...t, sourceTime: t.time, sourceId: TRADES[i]?.id })),
    );
    expect(tradeToTick({ price: 91234.5, amount: 1 }, BTC, BTC_AT)).toBeNull(); // no timestamp
  });
});

/** A fake exchange with Binance's payloads: only the methods the feed uses. */
class FakeExchange implements CcxtExchange {
  readonly id = "binance";
  readonly markets: Record<string, unknown> = {
    "BTC/USDT": {},
    "ETH/USDT": {},
    "BNB/USDT": {},
    "DOGE/USDT": {},
  };
  tickers: Record<string, CcxtTicker> = TICKERS;
  trades = new Map<string, CcxtTrade[]>([["BTC/USDT", TRADES]]);
  calls: string[] = [];
  failNext = false;

  async loadMarkets() {
    this.calls.push("loadMarkets");
    return this.markets;
  }

  async fetchTickers(symbols?: string[]) {
    this.calls.push(`fetchTickers ${symbols?.join(",")}`);
    if (this.failNext) {
      this.failNext = false;
      throw new Error("NetworkError: binance GET /api/v3/ticker/24hr");
    }
    return Object.fromEntries(Object.entries(this.tickers).filter(([s]) => !symbols || symbols.includes(s)));
  }

  async fetchTrades(symbol: string, since?: number) {
    this.calls.push(`fetchTrades ${symbol} ${since ?? ""}`);
    return (this.trades.get(symbol) ?? []).filter((t) => since === undefined || (t.timestamp ?? 0) >= since);
  }

  /** Candles like the exchange pages them: at most `limit` from `since`, none after "now". */
  async fetchOHLCV(symbol: string, timeframe = "1m", since = 0, limit = 500): Promise<CcxtOhlcv[]> {
    this.calls.push(`fetchOHLCV ${symbol} ${timeframe} ${new Date(since).toISOString()}`);
    const size = { "1m": 60_000, "1h": 3_600_000, "1d": 86_400_000 }[timeframe] ?? 60_000;
    const rows: CcxtOhlcv[] = [];
    for (let t = Math.ceil(since / size) * size; t <= NOW && rows.length < limit; t += size) {
      const base = 90000 + ((t / size) % 97);
      rows.push([t, base, base + 12.5, base - 7.25, base + 1.01, 3.5]);
    }
    return rows;
  }
}

describe("CcxtFeed", () => {
  it("polls tickers for listed instruments only and skips unchanged tickers", async () => {
    const exchange = new FakeExchange();
    const feed = new CcxtFeed({ exchange, manual: true, clock: () => NOW });
    const received: Tick[] = [];
    await feed.start([BTC, BNB, DOGE, EURUSD, instrument("XRPUSDT")], (t) => received.push(t));
    const ticks = await feed.poll();
    expect(ticks.map((t) => `${t.symbol} ${t.price}`)).toEqual([
      "BTCUSDT 91234.56",
      "BNBUSDT 884.6",
      "DOGEUSDT 0.15321",
    ]);
    expect(received).toEqual(ticks);
    expect(exchange.calls).toContain("fetchTickers BTC/USDT,BNB/USDT,DOGE/USDT");
    expect(await feed.poll()).toEqual([]);
    exchange.tickers = {
      ...TICKERS,
      "BTC/USDT": { ...TICKERS["BTC/USDT"], last: 91240.01, timestamp: 1794996988013, info: {} },
    };
    expect(await feed.poll()).toMatchObject([
      { symbol: "BTCUSDT", price: "91240.01", volume: "0", time: 1794996988013, source: "binance" },
    ]);
    await feed.stop();
  });

  it("polls trades: the latest price first, then every new trade once, with its volume", async () => {
    const exchange = new FakeExchange();
    const feed = new CcxtFeed({ exchange, manual: true, source: "trades", clock: () => NOW });
    await feed.start([BTC], () => {});
    expect(await feed.poll()).toMatchObject([
      { symbol: "BTCUSDT", price: "91234.56", volume: "0", time: 1794996987013, sourceId: TRADES[2]?.id },
    ]);
    exchange.trades.set("BTC/USDT", TRADES_NEXT);
    const next = await feed.poll();
    expect(next).toMatchObject([
      { symbol: "BTCUSDT", price: "91234.57", volume: "0.02", time: 1794996987013 },
      { symbol: "BTCUSDT", price: "91236.01", volume: "0.51308", time: 1794996987655 },
    ]);
    // Each tick names its trade: the source, the source's symbol, time and trade id, our receive time.
    expect(next.map((t) => [t.source, t.sourceSymbol, t.sourceTime, t.sourceId, t.receivedAt])).toEqual(
      TRADES_NEXT.slice(-2).map((t) => ["binance", "BTC/USDT", t.timestamp, t.id, NOW]),
    );
    expect(await feed.poll()).toEqual([]);
    expect(exchange.calls.at(-1)).toBe("fetchTrades BTC/USDT 1794996987655");
  });

  it("seeds history from fetchOHLCV, paging through the minute section, ending before now", async () => {
    const exchange = new FakeExchange();
    const feed = new CcxtFeed({ exchange, manual: true });
    const seed = await feed.history(BTC, NOW);
    const ranges = historyRanges(NOW);
    expect(seed["1m"]).toHaveLength((ranges["1m"].to - ranges["1m"].from) / 60_000);
    expect(seed["1m"][seed["1m"].length - 1]?.time).toBe(periodStart("1m", NOW) - 60_000);
    expect(seed["1h"][0]?.time).toBe(ranges["1h"].from);
    expect(seed["1h"][seed["1h"].length - 1]?.time).toBe(ranges["1m"].from - 3_600_000);
    expect(seed["1d"]).toHaveLength(730);
    expect(exchange.calls.filter((c) => c.startsWith("fetchOHLCV BTC/USDT 1m"))).toHaveLength(2);
    expect(seed["1m"][0]).toMatchObject({
      high: expect.stringMatching(/\.5$/),
      low: expect.stringMatching(/\.75$/),
    });
    expect(await feed.history(EURUSD, NOW)).toEqual({ "1d": [], "1h": [], "1m": [] });
  });

  it("polls on a timer, reports errors and keeps polling, and stops", async () => {
    // The poll timer runs on the test's clock; after stop no timer is left to poll again.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    onTestFinished(() => void vi.useRealTimers());
    const exchange = new FakeExchange();
    exchange.failNext = true;
    const errors: unknown[] = [];
    const feed = new CcxtFeed({
      exchange: async () => exchange,
      intervalMs: 5,
      onError: (e) => errors.push(e),
    });
    const received: Tick[] = [];
    await feed.start([BTC], (t) => received.push(t));
    await vi.advanceTimersByTimeAsync(20);
    await feed.stop();
    expect(vi.getTimerCount()).toBe(0);
    expect(errors).toHaveLength(1);
    expect(received.map((t) => t.price)).toEqual(["91234.56"]);
    const polls = exchange.calls.filter((c) => c.startsWith("fetchTickers")).length;
    expect(polls).toBeGreaterThan(2);
    await vi.advanceTimersByTimeAsync(1000);
    expect(exchange.calls.filter((c) => c.startsWith("fetchTickers")).length).toBe(polls);
  });
});

describe("the real ccxt package", () => {
  it("builds an exchange by id without touching the network, and rejects unknown ids", async () => {
    const exchange = await createCcxtExchange("binance");
    expect(exchange.id).toBe("binance");
    expect(typeof exchange.fetchTickers).toBe("function");
    expect(typeof exchange.fetchOHLCV).toBe("function");
    await expect(createCcxtExchange("no-such-exchange")).rejects.toThrow(/unknown exchange/);
  });
});

describe("createFeed", () => {
  it("creates each kind and checks its configuration", () => {
    expect(createFeed({ kind: "simulator", seed: 1 }).name).toBe("simulator");
    expect(createFeed({ kind: "replay", replayDir: "/nonexistent" }).name).toBe("replay");
    expect(createFeed({ kind: "ccxt", exchange: "binance" }).name).toBe("ccxt");
    expect(() => createFeed({ kind: "replay" })).toThrow(/replayDir/);
    expect(() => createFeed({ kind: "ccxt" })).toThrow(/exchange/);
  });
});
