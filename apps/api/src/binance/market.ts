import { AppError } from "@northstar/domain/errors";
import {
  getCandles,
  type InstrumentView,
  loadCatalogue,
  readTickers,
  snapshotKey,
} from "@northstar/domain/markets";
import { getSpotTerms } from "@northstar/domain/spot";
import {
  type CandlePeriod,
  channel,
  type Depth,
  hasSpotMarket,
  isMarketOpen,
  type MarketTrade,
} from "@northstar/shared/markets";
import { MoneyDecimal } from "@northstar/shared/money";
import type { AppDeps } from "../http/deps.ts";
import { binanceSymbol } from "./views.ts";

// The catalogue changes rarely and every public call maps a symbol: one read a second at most.
let cached: { at: number; db: unknown; markets: Promise<Map<string, InstrumentView>> } | undefined;

/** The spot markets by their Binance symbol. */
export function spotMarkets(deps: AppDeps): Promise<Map<string, InstrumentView>> {
  if (!cached || cached.db !== deps.db || Date.now() - cached.at > 1000) {
    const markets = loadCatalogue(deps.db).then(
      (all) =>
        new Map(all.filter((i) => i.enabled && hasSpotMarket(i)).map((i) => [binanceSymbol(i.symbol), i])),
    );
    cached = { at: Date.now(), db: deps.db, markets };
    markets.catch(() => {
      cached = undefined;
    });
  }
  return cached.markets;
}

/** The catalogue instrument of a Binance symbol; -1121 "Invalid symbol" when none. */
export async function marketOf(deps: AppDeps, symbol: string): Promise<InstrumentView> {
  const market = (await spotMarkets(deps)).get(symbol);
  if (!market) {
    throw new AppError("API_SYMBOL_INVALID");
  }
  return market;
}

const decimalsOf = (step: string) => {
  const [, fraction = ""] = new MoneyDecimal(step).toFixed().split(".");
  return fraction.length;
};

/** /api/v3/exchangeInfo: every spot market with its grid as Binance's filters. */
export async function exchangeInfo(deps: AppDeps, only?: string[]) {
  const markets = [...(await spotMarkets(deps)).entries()].filter(([s]) => !only || only.includes(s));
  const symbols = await Promise.all(
    markets.map(async ([symbol, instrument]) => {
      const terms = await getSpotTerms(deps.db, instrument.symbol);
      const oneTickLot = new MoneyDecimal(terms.tickSize).times(terms.lotSize).toFixed();
      return {
        symbol,
        status: isMarketOpen(instrument.tradingHours) ? "TRADING" : "BREAK",
        baseAsset: terms.base,
        baseAssetPrecision: terms.baseDecimals,
        quoteAsset: terms.quote,
        quotePrecision: terms.quoteDecimals,
        quoteAssetPrecision: terms.quoteDecimals,
        baseCommissionPrecision: terms.baseDecimals,
        quoteCommissionPrecision: terms.quoteDecimals,
        orderTypes: ["LIMIT", "LIMIT_MAKER", "MARKET"],
        icebergAllowed: false,
        ocoAllowed: false,
        otoAllowed: false,
        quoteOrderQtyMarketAllowed: true,
        allowTrailingStop: false,
        cancelReplaceAllowed: false,
        isSpotTradingAllowed: true,
        isMarginTradingAllowed: false,
        filters: [
          {
            filterType: "PRICE_FILTER",
            minPrice: new MoneyDecimal(terms.tickSize).toFixed(),
            maxPrice: "0",
            tickSize: new MoneyDecimal(terms.tickSize).toFixed(),
          },
          {
            filterType: "LOT_SIZE",
            minQty: new MoneyDecimal(terms.minQty).toFixed(),
            maxQty: "0",
            stepSize: new MoneyDecimal(terms.lotSize).toFixed(),
          },
          {
            filterType: "MARKET_LOT_SIZE",
            minQty: new MoneyDecimal(terms.minQty).toFixed(),
            maxQty: "0",
            stepSize: new MoneyDecimal(terms.lotSize).toFixed(),
          },
          // The engine's smallest order value is one tick times one lot (a market buy's budget too).
          {
            filterType: "NOTIONAL",
            minNotional: oneTickLot,
            applyMinToMarket: true,
            maxNotional: "0",
            applyMaxToMarket: false,
            avgPriceMins: 0,
          },
          { filterType: "MAX_NUM_ORDERS", maxNumOrders: terms.maxOpenOrders },
        ],
        permissions: ["SPOT"],
        permissionSets: [["SPOT"]],
        defaultSelfTradePreventionMode: "NONE",
        allowedSelfTradePreventionModes: ["NONE"],
        pricePrecision: decimalsOf(terms.tickSize),
      };
    }),
  );
  return {
    timezone: "UTC",
    serverTime: Date.now(),
    rateLimits: [],
    exchangeFilters: [],
    symbols,
  };
}

async function snapshots<T>(deps: AppDeps, channels: string[]): Promise<(T | null)[]> {
  if (channels.length === 0) {
    return [];
  }
  const raw = await deps.redis.mget(channels.map((ch) => snapshotKey(deps.config.redisPrefix, ch)));
  return raw.map((r) => (r ? ((JSON.parse(r) as { data: T }).data ?? null) : null));
}

/** /api/v3/depth: the real book's levels as the matcher last published them. */
export async function depthOf(deps: AppDeps, instrument: InstrumentView, limit: number) {
  const raw = await deps.redis.get(snapshotKey(deps.config.redisPrefix, channel.depth(instrument.symbol)));
  const message = raw ? (JSON.parse(raw) as { seq: number; data: Depth }) : null;
  return {
    lastUpdateId: message?.seq ?? 0,
    bids: (message?.data.bids ?? []).slice(0, limit),
    asks: (message?.data.asks ?? []).slice(0, limit),
  };
}

/** /api/v3/trades: the latest public prints, newest last as Binance lists them. */
export async function tradesOf(deps: AppDeps, instrument: InstrumentView, limit: number) {
  const [list] = await snapshots<MarketTrade[]>(deps, [channel.trades(instrument.symbol)]);
  return (list ?? [])
    .slice(0, limit)
    .reverse()
    .map((t) => ({
      id: Number(t.id),
      price: t.p,
      qty: t.q,
      quoteQty: new MoneyDecimal(t.p).times(t.q).toFixed(),
      time: t.t,
      isBuyerMaker: t.side === "sell",
      isBestMatch: true,
    }));
}

const PERIOD_MS: Record<string, number> = {
  "1m": 60_000,
  "5m": 300_000,
  "15m": 900_000,
  "1h": 3_600_000,
  "4h": 14_400_000,
  "1d": 86_400_000,
  "1w": 604_800_000,
};

/** The last millisecond of a candle that starts at `time` (a month's last, for 1M). */
export function klineCloseTime(time: number, interval: string): number {
  if (interval === "1M") {
    return Date.UTC(new Date(time).getUTCFullYear(), new Date(time).getUTCMonth() + 1, 1) - 1;
  }
  return time + (PERIOD_MS[interval] ?? 60_000) - 1;
}

/** /api/v3/klines: stored candles in Binance's array form (the forming one is not stored yet). */
export async function klinesOf(
  deps: AppDeps,
  instrument: InstrumentView,
  params: {
    interval: CandlePeriod;
    startTime?: number | undefined;
    endTime?: number | undefined;
    limit: number;
  },
) {
  const candles = await getCandles(deps.db, instrument.symbol, params.interval, {
    limit: params.startTime === undefined ? params.limit : 1000,
    ...(params.endTime === undefined ? {} : { before: params.endTime + 1 }),
  });
  const from = params.startTime;
  const kept = (from === undefined ? candles : candles.filter((c) => c.time >= from)).slice(0, params.limit);
  return kept.map((c) => {
    const close = klineCloseTime(c.time, params.interval);
    const quoteVolume = new MoneyDecimal(c.volume).times(c.close).toFixed();
    return [c.time, c.open, c.high, c.low, c.close, c.volume, close, quoteVolume, 0, "0", "0", "0"];
  });
}

/** Best bid and ask of each market, from its published depth. */
async function bookTops(deps: AppDeps, instruments: InstrumentView[]) {
  const depths = await snapshots<Depth>(
    deps,
    instruments.map((i) => channel.depth(i.symbol)),
  );
  return depths.map((d) => ({
    bidPrice: d?.bids[0]?.[0] ?? "0",
    bidQty: d?.bids[0]?.[1] ?? "0",
    askPrice: d?.asks[0]?.[0] ?? "0",
    askQty: d?.asks[0]?.[1] ?? "0",
  }));
}

/** The markets a ticker call names: one symbol, a list, or all. */
export async function tickerMarkets(
  deps: AppDeps,
  params: { symbol?: string | undefined; symbols?: string[] | undefined },
) {
  if (params.symbol) {
    return [await marketOf(deps, params.symbol)];
  }
  if (params.symbols) {
    return Promise.all(params.symbols.map((s) => marketOf(deps, s)));
  }
  return [...(await spotMarkets(deps)).values()];
}

export async function ticker24h(deps: AppDeps, instruments: InstrumentView[]) {
  const [tickers, tops] = await Promise.all([
    readTickers(deps.redis, deps.config.redisPrefix),
    bookTops(deps, instruments),
  ]);
  const now = Date.now();
  return instruments.map((instrument, i) => {
    const t = tickers.get(instrument.symbol);
    const last = t?.p ?? "0";
    const open = t?.o ?? "0";
    const volume = t?.v ?? "0";
    const quoteVolume = t?.q ?? "0";
    const weighted = new MoneyDecimal(volume).isZero()
      ? last
      : new MoneyDecimal(quoteVolume).div(volume).toFixed(8);
    return {
      symbol: binanceSymbol(instrument.symbol),
      priceChange: new MoneyDecimal(last).minus(open).toFixed(),
      priceChangePercent: t?.c ?? "0",
      weightedAvgPrice: weighted,
      prevClosePrice: open,
      lastPrice: last,
      lastQty: "0",
      ...tops[i],
      openPrice: open,
      highPrice: t?.h ?? "0",
      lowPrice: t?.l ?? "0",
      volume,
      quoteVolume,
      openTime: now - 86_400_000,
      closeTime: t?.t ?? now,
      firstId: -1,
      lastId: -1,
      count: 0,
    };
  });
}

export async function tickerPrices(deps: AppDeps, instruments: InstrumentView[]) {
  const tickers = await readTickers(deps.redis, deps.config.redisPrefix);
  return instruments.map((i) => ({
    symbol: binanceSymbol(i.symbol),
    price: tickers.get(i.symbol)?.p ?? "0",
  }));
}

export async function bookTickers(deps: AppDeps, instruments: InstrumentView[]) {
  const tops = await bookTops(deps, instruments);
  return instruments.map((i, n) => ({ symbol: binanceSymbol(i.symbol), ...tops[n] }));
}
