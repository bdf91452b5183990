import { hasSpotMarket } from "@northstar/shared/markets";
import { MoneyDecimal } from "@northstar/shared/money";
import { BOOKS, type Book } from "../../ledger/ledger.table.ts";
import type { InstrumentView } from "../../markets/catalogue.ts";
import { OrderBook } from "../engine/book.ts";
import type { BookSnapshot, EngineSink, RestingOrder } from "../engine/types.ts";
import { toLots, toTicks } from "../engine/units.ts";
import type { SpotOrderRow } from "../order-view.ts";
import type { BookState, Market } from "./batch.ts";

/** What the matcher's markets are built from: when it changes, the books are rebuilt. */
export function marketsSignature(instruments: InstrumentView[]): string {
  return instruments
    .filter(hasSpotMarket)
    .map((i) => [i.symbol, i.base, i.quote, i.tickSize, i.lotSize, i.minQty].join(":"))
    .sort()
    .join(",");
}

/** Every spot market of the catalogue with an empty engine per book, each reporting to its sink. */
export function spotMarkets(
  instruments: InstrumentView[],
  currencies: { code: string; decimals: number }[],
  sinkFor: (market: Market, book: Book) => EngineSink,
): Market[] {
  const decimalsOf = new Map(currencies.map((c) => [c.code, c.decimals]));
  return instruments.filter(hasSpotMarket).map((instrument) => {
    const market: Market = {
      symbol: instrument.symbol,
      base: instrument.base,
      quote: instrument.quote,
      baseDecimals: decimalsOf.get(instrument.base) ?? 8,
      quoteDecimals: decimalsOf.get(instrument.quote) ?? 8,
      tickSize: instrument.tickSize,
      lotSize: instrument.lotSize,
      minLots: Math.max(1, toLots(instrument.minQty, instrument.lotSize) ?? 1),
      books: {} as Record<Book, BookState>,
      recentTrades: [],
    };
    for (const book of BOOKS) {
      market.books[book] = {
        engine: new OrderBook({ minQty: market.minLots, sink: sinkFor(market, book) }),
        quotes: new Set(),
      };
    }
    return market;
  });
}

/**
 * Puts the resting orders back on their books: best price first, then in the order the matcher took
 * them (`queue_seq`), which is the queue each level had; an order taken before that was recorded
 * (none has a null after its first batch) goes first, by id.
 */
export function restoreBooks(markets: ReadonlyMap<string, Market>, resting: SpotOrderRow[]): void {
  const seqOf = new Map(resting.map((row) => [row.id, row.queueSeq ?? 0]));
  const queued = (order: RestingOrder) => seqOf.get(order.id) ?? 0;
  const snapshots = new Map<BookState, { market: Market; snapshot: BookSnapshot }>();
  for (const row of resting) {
    const market = markets.get(row.symbol);
    if (!market) {
      continue;
    }
    const state = market.books[row.book];
    const entry = snapshots.get(state) ?? { market, snapshot: { bids: [], asks: [] } };
    snapshots.set(state, entry);
    const remaining = new MoneyDecimal(row.quantity ?? "0").minus(row.filledQty).toFixed();
    const order: RestingOrder = {
      id: row.id,
      owner: row.userId,
      side: row.side,
      price: toTicks(row.price ?? "0", market.tickSize) ?? 0,
      qty: toLots(remaining, market.lotSize) ?? 0,
    };
    (row.side === "buy" ? entry.snapshot.bids : entry.snapshot.asks).push(order);
  }
  for (const [state, { snapshot }] of snapshots) {
    snapshot.bids.sort((a, b) => b.price - a.price || queued(a) - queued(b) || a.id - b.id);
    snapshot.asks.sort((a, b) => a.price - b.price || queued(a) - queued(b) || a.id - b.id);
    state.engine.restore(snapshot);
  }
}
