import { hasSpotMarket } from "@northstar/shared/markets";
import { MoneyDecimal } from "@northstar/shared/money";
import { BOOKS, type Book } from "../../ledger/index.ts";
import type { InstrumentView } from "../../markets/index.ts";
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

/** A resting order or market-maker quote to put back on a book, with its place in the queue. */
export interface Restorable {
  symbol: string;
  book: Book;
  order: RestingOrder;
  queueSeq: number;
}

/** A resting order's row as the engine holds it (what is left of it, in ticks and lots). */
export function restingOrder(row: SpotOrderRow, market: Market): RestingOrder {
  const remaining = new MoneyDecimal(row.quantity ?? "0").minus(row.filledQty).toFixed();
  return {
    id: row.id,
    owner: row.userId,
    side: row.side,
    price: toTicks(row.price ?? "0", market.tickSize) ?? 0,
    qty: toLots(remaining, market.lotSize) ?? 0,
  };
}

/**
 * Puts resting orders and quotes back on their books: best price first, then in the order the
 * matcher took them (`queue_seq`), which is the queue each level had. With several API processes a
 * higher id can reach the stream first, so ids alone would not give it back; rows from before
 * `queue_seq` was recorded (0 here) go first, by id.
 */
export function restoreBooks(markets: ReadonlyMap<string, Market>, entries: Restorable[]): void {
  const snapshots = new Map<BookState, { snapshot: BookSnapshot; seqs: Map<number, number> }>();
  for (const entry of entries) {
    const market = markets.get(entry.symbol);
    if (!market) {
      continue;
    }
    const state = market.books[entry.book];
    const found = snapshots.get(state) ?? { snapshot: { bids: [], asks: [] }, seqs: new Map() };
    snapshots.set(state, found);
    found.seqs.set(entry.order.id, entry.queueSeq);
    (entry.order.side === "buy" ? found.snapshot.bids : found.snapshot.asks).push(entry.order);
  }
  for (const [state, { snapshot, seqs }] of snapshots) {
    const queued = (o: RestingOrder) => seqs.get(o.id) ?? 0;
    snapshot.bids.sort((a, b) => b.price - a.price || queued(a) - queued(b) || a.id - b.id);
    snapshot.asks.sort((a, b) => a.price - b.price || queued(a) - queued(b) || a.id - b.id);
    state.engine.restore(snapshot);
  }
}
