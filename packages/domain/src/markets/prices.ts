import type { Ticker } from "@northstar/shared/markets";
import { MoneyDecimal } from "@northstar/shared/money";

/**
 * Where money screens get prices: the USDT value of a currency. The market-data module provides
 * the feed-backed implementation; until then, and in tests, a fixed table serves.
 */
export interface PriceProvider {
  /** Price of one unit of `currency` in USDT, as a decimal string, or null when unknown. */
  priceInUsdt(currency: string): Promise<string | null>;
}

/** Reference levels, used only until live market data is wired in. */
export const REFERENCE_PRICES_USDT: Record<string, string> = {
  USDT: "1",
  USDC: "1",
  USD: "1",
  BTC: "90000",
  ETH: "3000",
  TRX: "0.25",
  BNB: "600",
  SOL: "150",
  XRP: "0.6",
  DOGE: "0.15",
  ADA: "0.5",
  LTC: "80",
};

export function createFixedPriceProvider(
  prices: Record<string, string> = REFERENCE_PRICES_USDT,
): PriceProvider {
  return {
    async priceInUsdt(currency) {
      return prices[currency] ?? null;
    },
  };
}

/** USDT value of an amount, or null when the currency has no price. */
export async function valueInUsdt(
  prices: PriceProvider,
  currency: string,
  amount: string,
): Promise<string | null> {
  const price = await prices.priceInUsdt(currency);
  return price === null ? null : new MoneyDecimal(amount).times(price).toFixed();
}

/**
 * The feed-backed provider: a currency's price is the last price of its USDT market on the ticker
 * snapshot the worker keeps in Redis. Stablecoins pegged by the platform are 1. Reads are cached for
 * a second, the feed's own update interval.
 */
export function createTickerPriceProvider(
  readTickers: () => Promise<Map<string, Ticker>>,
  pegged: readonly string[] = ["USDT", "USD", "USDC"],
): PriceProvider {
  let cached: { at: number; tickers: Promise<Map<string, Ticker>> } | null = null;
  return {
    async priceInUsdt(currency) {
      if (pegged.includes(currency)) {
        return "1";
      }
      if (!cached || Date.now() - cached.at > 1000) {
        cached = { at: Date.now(), tickers: readTickers() };
      }
      const ticker = (await cached.tickers).get(`${currency}USDT`);
      return ticker ? ticker.p : null;
    },
  };
}
