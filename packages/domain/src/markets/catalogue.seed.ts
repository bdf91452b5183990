import type { InstrumentInput, TradingHours } from "@northstar/shared/markets";
import { ALWAYS_OPEN } from "@northstar/shared/markets";

/*
 * The seeded catalogue. Reference prices are recent real levels (late 2026), so the simulator starts
 * where a visitor expects; operators edit any of it in the back office. Hours are the usual sessions
 * in the venue's own time zone; holidays are not modelled.
 */
const WEEKDAYS = [1, 2, 3, 4, 5];
const session = (timeZone: string, open: string, close: string): TradingHours => ({
  timeZone,
  sessions: [{ days: WEEKDAYS, open, close }],
});
/** Forex: Sunday 17:00 to Friday 17:00 New York. */
const FOREX_HOURS: TradingHours = {
  timeZone: "America/New_York",
  sessions: [
    { days: [0], open: "17:00", close: "24:00" },
    { days: [1, 2, 3, 4], open: "00:00", close: "24:00" },
    { days: [5], open: "00:00", close: "17:00" },
  ],
};
/** CME-style metals and energy: Sunday 18:00 to Friday 17:00 New York, with a daily hour's break. */
const COMMODITY_HOURS: TradingHours = {
  timeZone: "America/New_York",
  sessions: [
    { days: [0], open: "18:00", close: "24:00" },
    { days: [1, 2, 3, 4], open: "00:00", close: "17:00" },
    { days: [1, 2, 3, 4], open: "18:00", close: "24:00" },
    { days: [5], open: "00:00", close: "17:00" },
  ],
};
const US_HOURS = session("America/New_York", "09:30", "16:00");

type Row = Omit<InstrumentInput, "sort" | "enabled">;

/**
 * Where each non-crypto instrument's live price comes from: its Yahoo Finance symbol. Forex is the
 * "=X" pair; indices the "^" index; metals and energy the front-month futures ("=F"), which differ from
 * spot by the carry; a share class with a dot is spelt with a dash ("BRK-B").
 */
const YAHOO_SYMBOLS: Record<string, string> = {
  SPX500: "^GSPC",
  NAS100: "^NDX",
  US30: "^DJI",
  GER40: "^GDAXI",
  UK100: "^FTSE",
  JPN225: "^N225",
  HK50: "^HSI",
  EU50: "^STOXX50E",
  XAUUSD: "GC=F",
  XAGUSD: "SI=F",
  XPTUSD: "PL=F",
  USOIL: "CL=F",
  UKOIL: "BZ=F",
  NGAS: "NG=F",
  "BRK.B": "BRK-B",
  // Bitcoin's US dollar price (the CFD), not a USDT pair.
  BTCUSD: "BTC-USD",
};

/** Crypto the seeded exchange (Binance) no longer lists: no live source, view-only for real accounts. */
const NO_LIVE_SOURCE = new Set(["XMRUSDT"]);

/** The live source mapping of a seeded row. */
function withSource(row: Row): Row {
  if (NO_LIVE_SOURCE.has(row.symbol)) {
    return { ...row, feedSource: null, sourceSymbol: null };
  }
  if (row.category === "crypto" && row.quote === "USDT") {
    return { ...row, feedSource: "ccxt", sourceSymbol: `${row.base}/${row.quote}` };
  }
  const yahoo = YAHOO_SYMBOLS[row.symbol] ?? (row.category === "forex" ? `${row.symbol}=X` : row.symbol);
  return { ...row, feedSource: "yahoo", sourceSymbol: yahoo };
}

// [base, name, price, tick, lot, display, volatility, leverage, options?]
const CRYPTO: [string, string, string, string, string, 2 | 4 | 6, string, number, boolean?][] = [
  ["BTC", "Bitcoin", "91250.00", "0.01", "0.00001", 2, "0.55", 100, true],
  ["ETH", "Ethereum", "3020.00", "0.01", "0.0001", 2, "0.7", 100, true],
  ["BNB", "BNB", "885.0", "0.1", "0.001", 2, "0.6", 50, true],
  ["SOL", "Solana", "138.50", "0.01", "0.001", 2, "0.85", 50, true],
  ["XRP", "XRP", "2.1050", "0.0001", "0.1", 4, "0.8", 50, true],
  ["DOGE", "Dogecoin", "0.15320", "0.00001", "1", 6, "0.9", 50],
  ["ADA", "Cardano", "0.4210", "0.0001", "0.1", 4, "0.85", 50],
  ["TRX", "TRON", "0.28150", "0.00001", "1", 6, "0.6", 50],
  ["AVAX", "Avalanche", "13.520", "0.001", "0.01", 4, "0.9", 50],
  ["LINK", "Chainlink", "12.810", "0.001", "0.01", 4, "0.85", 50],
  ["DOT", "Polkadot", "2.5100", "0.0001", "0.1", 4, "0.85", 20],
  ["LTC", "Litecoin", "85.40", "0.01", "0.001", 2, "0.75", 50],
  ["BCH", "Bitcoin Cash", "520.5", "0.1", "0.001", 2, "0.75", 50],
  ["UNI", "Uniswap", "6.210", "0.001", "0.01", 4, "0.9", 20],
  ["ATOM", "Cosmos", "2.6200", "0.0001", "0.01", 4, "0.85", 20],
  ["XLM", "Stellar", "0.24150", "0.00001", "1", 6, "0.8", 20],
  ["ETC", "Ethereum Classic", "13.050", "0.001", "0.01", 4, "0.8", 20],
  ["FIL", "Filecoin", "1.6300", "0.0001", "0.1", 4, "0.95", 20],
  ["APT", "Aptos", "2.6400", "0.0001", "0.01", 4, "0.95", 20],
  ["ARB", "Arbitrum", "0.21050", "0.00001", "1", 6, "1.0", 20],
  ["OP", "Optimism", "0.32150", "0.00001", "1", 6, "1.0", 20],
  ["NEAR", "NEAR Protocol", "1.9100", "0.0001", "0.1", 4, "0.95", 20],
  ["ICP", "Internet Computer", "4.520", "0.001", "0.01", 4, "0.95", 20],
  ["AAVE", "Aave", "171.20", "0.01", "0.001", 2, "0.9", 20],
  ["SUI", "Sui", "1.6200", "0.0001", "0.1", 4, "1.0", 20],
  ["TON", "Toncoin", "1.6050", "0.0001", "0.1", 4, "0.8", 20],
  ["INJ", "Injective", "5.810", "0.001", "0.01", 4, "1.0", 20],
  ["HBAR", "Hedera", "0.14020", "0.00001", "1", 6, "0.9", 20],
  ["ALGO", "Algorand", "0.14150", "0.00001", "1", 6, "0.9", 20],
  ["FET", "Artificial Superintelligence", "0.2480", "0.0001", "0.1", 4, "1.1", 20],
  ["RENDER", "Render", "1.8700", "0.0001", "0.1", 4, "1.1", 20],
  ["XMR", "Monero", "352.40", "0.01", "0.001", 2, "0.7", 20],
];

// [symbol, name, price, jpyQuoted]
const FOREX: [string, string, string][] = [
  ["EURUSD", "Euro / US Dollar", "1.15820"],
  ["GBPUSD", "British Pound / US Dollar", "1.31050"],
  ["USDJPY", "US Dollar / Japanese Yen", "156.420"],
  ["USDCHF", "US Dollar / Swiss Franc", "0.80150"],
  ["AUDUSD", "Australian Dollar / US Dollar", "0.64830"],
  ["USDCAD", "US Dollar / Canadian Dollar", "1.40920"],
  ["NZDUSD", "New Zealand Dollar / US Dollar", "0.56210"],
  ["EURGBP", "Euro / British Pound", "0.88380"],
  ["EURJPY", "Euro / Japanese Yen", "181.170"],
  ["GBPJPY", "British Pound / Japanese Yen", "204.990"],
  ["EURCHF", "Euro / Swiss Franc", "0.92830"],
  ["AUDJPY", "Australian Dollar / Japanese Yen", "101.410"],
  ["EURAUD", "Euro / Australian Dollar", "1.78650"],
  ["GBPCHF", "British Pound / Swiss Franc", "1.05040"],
  ["CADJPY", "Canadian Dollar / Japanese Yen", "111.000"],
];

// [symbol, name, price, volatility]
const STOCKS: [string, string, string, string][] = [
  ["AAPL", "Apple", "271.40", "0.28"],
  ["MSFT", "Microsoft", "478.20", "0.25"],
  ["NVDA", "NVIDIA", "182.60", "0.5"],
  ["AMZN", "Amazon", "222.70", "0.32"],
  ["GOOGL", "Alphabet", "289.50", "0.3"],
  ["META", "Meta Platforms", "594.30", "0.38"],
  ["TSLA", "Tesla", "401.80", "0.6"],
  ["BRK.B", "Berkshire Hathaway", "507.10", "0.16"],
  ["JPM", "JPMorgan Chase", "303.40", "0.24"],
  ["V", "Visa", "331.60", "0.2"],
  ["MA", "Mastercard", "548.90", "0.21"],
  ["JNJ", "Johnson & Johnson", "201.30", "0.17"],
  ["WMT", "Walmart", "105.20", "0.2"],
  ["XOM", "Exxon Mobil", "118.40", "0.24"],
  ["UNH", "UnitedHealth", "323.70", "0.35"],
  ["HD", "Home Depot", "352.10", "0.23"],
  ["KO", "Coca-Cola", "70.45", "0.15"],
  ["NFLX", "Netflix", "110.30", "0.4"],
  ["AMD", "Advanced Micro Devices", "212.80", "0.55"],
  ["DIS", "Walt Disney", "106.90", "0.27"],
];

// [symbol, name, price, hours]
const INDICES: [string, string, string, TradingHours][] = [
  ["SPX500", "S&P 500", "6602.5", US_HOURS],
  ["NAS100", "Nasdaq 100", "24480.0", US_HOURS],
  ["US30", "Dow Jones Industrial Average", "46140.0", US_HOURS],
  ["GER40", "DAX 40", "23510.0", session("Europe/Berlin", "09:00", "17:30")],
  ["UK100", "FTSE 100", "9540.0", session("Europe/London", "08:00", "16:30")],
  ["JPN225", "Nikkei 225", "49120.0", session("Asia/Tokyo", "09:00", "15:30")],
  ["HK50", "Hang Seng", "25780.0", session("Asia/Hong_Kong", "09:30", "16:00")],
  ["EU50", "Euro Stoxx 50", "5610.0", session("Europe/Berlin", "09:00", "17:30")],
];

// [symbol, name, price, volatility]
const ETFS: [string, string, string, string][] = [
  ["SPY", "SPDR S&P 500 ETF", "659.80", "0.17"],
  ["QQQ", "Invesco QQQ", "596.30", "0.22"],
  ["IWM", "iShares Russell 2000", "238.90", "0.24"],
  ["GLD", "SPDR Gold Shares", "374.60", "0.16"],
  ["TLT", "iShares 20+ Year Treasury", "89.70", "0.14"],
  ["EEM", "iShares MSCI Emerging Markets", "53.20", "0.2"],
];

// [symbol, name, base, price, tick, lot, display, volatility, category]
const COMMODITIES: [string, string, string, string, string, string, 2 | 4, string, "metals" | "energy"][] = [
  ["XAUUSD", "Gold", "XAU", "4065.20", "0.01", "0.01", 2, "0.17", "metals"],
  ["XAGUSD", "Silver", "XAG", "50.420", "0.001", "0.1", 4, "0.32", "metals"],
  ["XPTUSD", "Platinum", "XPT", "1540.50", "0.01", "0.01", 2, "0.3", "metals"],
  ["USOIL", "WTI Crude Oil", "WTI", "58.90", "0.01", "1", 2, "0.4", "energy"],
  ["UKOIL", "Brent Crude Oil", "BRENT", "62.70", "0.01", "1", 2, "0.38", "energy"],
  ["NGAS", "Natural Gas", "NG", "4.5120", "0.0001", "10", 4, "0.6", "energy"],
];

/** A US-listed share or fund, traded in USD during New York hours. */
const usListing = (
  symbol: string,
  name: string,
  price: string,
  volatility: string,
  category: "stocks" | "etfs",
): Row => ({
  symbol,
  name,
  category,
  base: symbol,
  quote: "USD",
  tickSize: "0.01",
  lotSize: "0.01",
  minQty: "0.01",
  contractSize: "1",
  maxLeverage: 10,
  displayDecimals: 2,
  kinds: category === "stocks" ? ["contract", "option"] : ["contract"],
  tradingHours: US_HOURS,
  referencePrice: price,
  volatility,
});

export const SEED_INSTRUMENTS: Row[] = (
  [
    ...CRYPTO.map(
      ([base, name, price, tick, lot, display, volatility, leverage, options]): Row => ({
        symbol: `${base}USDT`,
        name,
        category: "crypto",
        base,
        quote: "USDT",
        tickSize: tick,
        lotSize: lot,
        minQty: lot,
        contractSize: "1",
        maxLeverage: leverage,
        displayDecimals: display,
        kinds: options ? ["spot", "contract", "option"] : ["spot", "contract"],
        tradingHours: ALWAYS_OPEN,
        referencePrice: price,
        volatility,
      }),
    ),
    // A bitcoin CFD: a contract on bitcoin's US dollar price, at most 25x (policy contracts.maxLeverage).
    {
      symbol: "BTCUSD",
      name: "Bitcoin CFD",
      category: "crypto",
      base: "BTC",
      quote: "USD",
      tickSize: "0.01",
      lotSize: "0.01",
      minQty: "0.01",
      contractSize: "1",
      maxLeverage: 25,
      displayDecimals: 2,
      kinds: ["contract"],
      tradingHours: ALWAYS_OPEN,
      referencePrice: "91250.00",
      volatility: "0.55",
    },
    ...FOREX.map(([symbol, name, price]): Row => {
      const jpy = symbol.endsWith("JPY");
      return {
        symbol,
        name,
        category: "forex",
        base: symbol.slice(0, 3),
        quote: symbol.slice(3),
        tickSize: jpy ? "0.001" : "0.00001",
        lotSize: "0.01",
        minQty: "0.01",
        contractSize: "100000",
        maxLeverage: 100,
        displayDecimals: jpy ? 4 : 6,
        kinds: ["contract", "option"],
        tradingHours: FOREX_HOURS,
        referencePrice: price,
        volatility: jpy ? "0.1" : "0.08",
      };
    }),
    ...STOCKS.map(([symbol, name, price, volatility]) =>
      usListing(symbol, name, price, volatility, "stocks"),
    ),
    ...INDICES.map(
      ([symbol, name, price, hours]): Row => ({
        symbol,
        name,
        category: "indices",
        base: symbol,
        quote:
          symbol === "GER40" || symbol === "EU50"
            ? "EUR"
            : symbol === "UK100"
              ? "GBP"
              : symbol === "JPN225"
                ? "JPY"
                : symbol === "HK50"
                  ? "HKD"
                  : "USD",
        tickSize: "0.1",
        lotSize: "0.01",
        minQty: "0.01",
        contractSize: "1",
        maxLeverage: 50,
        displayDecimals: 2,
        kinds: ["contract", "option"],
        tradingHours: hours,
        referencePrice: price,
        volatility: "0.18",
      }),
    ),
    ...ETFS.map(([symbol, name, price, volatility]) => usListing(symbol, name, price, volatility, "etfs")),
    ...COMMODITIES.map(
      ([symbol, name, base, price, tick, lot, display, volatility, category]): Row => ({
        symbol,
        name,
        category,
        base,
        quote: "USD",
        tickSize: tick,
        lotSize: lot,
        minQty: lot,
        contractSize: category === "metals" ? "100" : "1000",
        maxLeverage: category === "metals" ? 100 : 50,
        displayDecimals: display,
        kinds: ["contract", "option"],
        tradingHours: COMMODITY_HOURS,
        referencePrice: price,
        volatility,
      }),
    ),
  ] satisfies Row[]
).map(withSource);

/** Currencies the spot markets need in the ledger: every crypto base, with 8 stored decimals. */
export const SEED_SPOT_CURRENCIES = CRYPTO.map(([base, name, , , , display]) => ({
  code: base,
  name,
  display,
}));
