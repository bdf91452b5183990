import { hasSpotMarket, isMarketOpen } from "@northstar/shared/markets";
import type { PolicySnapshot } from "@northstar/shared/policy";
import { findCurrency } from "../currencies/index.ts";
import type { DbOrTx } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { getInstrument, type InstrumentView } from "../markets/index.ts";
import { getPolicySnapshot } from "../policy/index.ts";

/** What a trader is told before ordering, and what the server enforces: the same values. */
export interface SpotTerms {
  symbol: string;
  base: string;
  quote: string;
  tickSize: string;
  lotSize: string;
  minQty: string;
  displayDecimals: number;
  /** Decimals the ledger holds base and quote to: finer amounts are refused, buy holds round up to them. */
  baseDecimals: number;
  quoteDecimals: number;
  open: boolean;
  makerFee: string;
  takerFee: string;
  marketProtection: string;
  tradePasswordRequired: boolean;
  maxOpenOrders: number;
}

// Orders arrive thousands a second; the catalogue row and policy change rarely. One second of
// staleness is what an operator's edit waits before it applies to new orders.
const TTL_MS = 1000;
const cache = new WeakMap<object, Map<string, { at: number; value: Promise<unknown> }>>();
function cached<T>(db: DbOrTx, key: string, load: () => Promise<T>): Promise<T> {
  let entries = cache.get(db);
  if (!entries) {
    entries = new Map();
    cache.set(db, entries);
  }
  const hit = entries.get(key);
  if (hit && Date.now() - hit.at < TTL_MS) {
    return hit.value as Promise<T>;
  }
  const value = load();
  entries.set(key, { at: Date.now(), value });
  value.catch(() => entries.delete(key));
  return value;
}

/** The decimals the ledger holds a currency to; 8 for one not listed, as the matcher settles it. */
const decimalsOf = (db: DbOrTx, code: string): Promise<number> =>
  cached(db, `decimals:${code}`, async () => (await findCurrency(db, code))?.decimals ?? 8);

export const spotPolicy = (db: DbOrTx): Promise<PolicySnapshot> =>
  cached(db, "policy", () => getPolicySnapshot(db));

/** The instrument of a spot market; SPOT_NOT_AVAILABLE when it has none or is disabled. */
export async function getSpotInstrument(db: DbOrTx, symbol: string): Promise<InstrumentView> {
  const instrument = await cached(db, `instrument:${symbol}`, () => getInstrument(db, symbol));
  if (!instrument.enabled || !hasSpotMarket(instrument)) {
    throw new AppError("SPOT_NOT_AVAILABLE", {}, "symbol");
  }
  return instrument;
}

export async function getSpotTerms(db: DbOrTx, symbol: string, now = new Date()): Promise<SpotTerms> {
  const [instrument, policy] = await Promise.all([getSpotInstrument(db, symbol), spotPolicy(db)]);
  const [baseDecimals, quoteDecimals] = await Promise.all([
    decimalsOf(db, instrument.base),
    decimalsOf(db, instrument.quote),
  ]);
  return {
    symbol: instrument.symbol,
    base: instrument.base,
    quote: instrument.quote,
    tickSize: instrument.tickSize,
    lotSize: instrument.lotSize,
    minQty: instrument.minQty,
    displayDecimals: instrument.displayDecimals,
    baseDecimals,
    quoteDecimals,
    open: isMarketOpen(instrument.tradingHours, now),
    makerFee: policy["spot.fee.maker"],
    takerFee: policy["spot.fee.taker"],
    marketProtection: policy["spot.marketProtection"],
    tradePasswordRequired: policy["spot.tradePassword.required"],
    maxOpenOrders: policy["spot.maxOpenOrders"],
  };
}
