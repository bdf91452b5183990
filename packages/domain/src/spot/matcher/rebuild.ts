import { MoneyDecimal } from "@northstar/shared/money";
import { and, asc, inArray } from "drizzle-orm";
import { listCurrencyDecimals } from "../../currencies/index.ts";
import type { Db } from "../../db/client.ts";
import { loadCatalogue } from "../../markets/index.ts";
import { toLots, toTicks } from "../engine/units.ts";
import { spotOrders, spotQuotes, spotStreamCursors } from "../spot.table.ts";
import { MARKET_MAKER_OWNER, type MatcherBooks } from "./books.ts";
import { type Restorable, restingOrder, restoreBooks, spotMarkets } from "./markets.ts";
import { LiveOrder } from "./settlement.ts";

/**
 * What the books of the markets `serves` accepts (a matcher's shard) are rebuilt from: those
 * markets of the catalogue, their committed cursors, resting orders and market-maker quotes.
 */
export async function loadMatcherSnapshot(db: Db, serves: (symbol: string) => boolean = () => true) {
  const [catalogue, decimals] = await Promise.all([
    loadCatalogue(db, { withDisabled: true }),
    listCurrencyDecimals(db),
  ]);
  const instruments = catalogue.filter((i) => serves(i.symbol));
  const symbols = instruments.map((i) => i.symbol);
  const [cursors, resting, quotes] = await Promise.all([
    db
      .select()
      .from(spotStreamCursors)
      .where(inArray(spotStreamCursors.symbol, symbols))
      .orderBy(asc(spotStreamCursors.symbol)),
    db
      .select()
      .from(spotOrders)
      .where(and(inArray(spotOrders.status, ["open", "partial"]), inArray(spotOrders.symbol, symbols)))
      .orderBy(spotOrders.id),
    // Restored quotes take ids in this order.
    db
      .select()
      .from(spotQuotes)
      .where(inArray(spotQuotes.symbol, symbols))
      .orderBy(asc(spotQuotes.queueSeq), asc(spotQuotes.symbol), asc(spotQuotes.book)),
  ]);
  return { instruments, decimals, cursors, resting, quotes };
}

export type MatcherSnapshot = Awaited<ReturnType<typeof loadMatcherSnapshot>>;

/** Starts the engines again from a snapshot: the markets, their resting orders and quotes in queue order. */
export function restoreMatcherBooks(books: MatcherBooks, snapshot: MatcherSnapshot): void {
  const { instruments, decimals, resting, quotes } = snapshot;
  books.markets.clear();
  books.orders.clear();
  books.quoteSeqs.clear();
  for (const market of spotMarkets(instruments, decimals, (m, book) => books.sinkFor(m, book))) {
    books.markets.set(market.symbol, market);
  }
  const entries: Restorable[] = [];
  for (const row of resting) {
    const market = books.markets.get(row.symbol);
    if (market) {
      books.orders.set(row.id, new LiveOrder(row));
      entries.push({
        symbol: row.symbol,
        book: row.book,
        order: restingOrder(row, market),
        queueSeq: row.queueSeq ?? 0,
      });
    }
  }
  // The market maker's quotes as last committed: what fills before the restart left of them.
  for (const quote of quotes) {
    const market = books.markets.get(quote.symbol);
    const price = market && toTicks(new MoneyDecimal(quote.price).toFixed(), market.tickSize);
    const qty = market && toLots(new MoneyDecimal(quote.quantity).toFixed(), market.lotSize);
    // A quote off the market's grid (the grid changed since) is left out, like its ladder would be.
    if (market && price && qty) {
      const id = books.nextQuoteId--;
      market.books[quote.book].quotes.add(id);
      books.quoteSeqs.set(id, quote.queueSeq);
      entries.push({
        symbol: quote.symbol,
        book: quote.book,
        queueSeq: quote.queueSeq,
        order: {
          id,
          owner: MARKET_MAKER_OWNER,
          side: quote.side,
          price,
          qty,
        },
      });
    }
  }
  restoreBooks(books.markets, entries);
  // Above every place still taken in the markets served: places are numbered per market and book
  // (a quote's row is keyed by its market, book and place), so matchers of other shards number theirs alone.
  books.queueCounter = 0;
  for (const seq of [...resting.map((r) => r.queueSeq ?? 0), ...quotes.map((q) => q.queueSeq)]) {
    books.queueCounter = Math.max(books.queueCounter, seq);
  }
}
