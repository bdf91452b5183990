import { MoneyDecimal } from "@northstar/shared/money";
import type { Book } from "../../ledger/index.ts";
import type { SpotCommand } from "../commands.ts";
import type { EngineSink } from "../engine/types.ts";
import { fromLots, fromTicks, toLots, toQuoteUnits, toTicks } from "../engine/units.ts";
import type { Batch, Market, QuoteRow } from "./batch.ts";
import { LiveOrder, releasePostings, settleTrade } from "./settlement.ts";

export const MARKET_MAKER_OWNER = 0;

/**
 * The matcher's memory: the engines of every market and book, the live orders and the market
 * maker's quotes. It applies commands to the engines and records what they report (trades, ended
 * orders, released holds) into the batch in progress; writing and publishing are the matcher's.
 */
export class MatcherBooks {
  readonly markets = new Map<string, Market>();
  readonly orders = new Map<number, LiveOrder>();
  /** The queue place (`queue_seq`) of each resting market-maker quote, by engine id. */
  readonly quoteSeqs = new Map<number, number>();
  /** Cancels that arrived before their order (kept in memory only; bounded by the matcher). */
  readonly earlyCancels = new Set<number>();
  nextQuoteId = -1;
  /** The last queue place given; on from the highest still resting after a rebuild. */
  queueCounter = 0;
  /** The batch the engines' events go into while `apply` runs. */
  batch: Batch | null = null;

  /** Engine events of one book, recorded into the batch in progress. */
  sinkFor(market: Market, book: Book): EngineSink {
    return {
      onAccepted: () => {},
      onTrade: (makerId, takerId, price, qty, _makerOwner, _takerOwner, takerSide) => {
        const batch = this.batch as Batch;
        const trade = settleTrade(
          market,
          book,
          {
            maker: this.orders.get(makerId),
            taker: this.orders.get(takerId),
            price: fromTicks(price, market.tickSize),
            quantity: fromLots(qty, market.lotSize),
            takerSide,
            at: batch.at,
          },
          batch.rates,
        );
        batch.trades.push(trade);
        if (makerId < 0 || takerId < 0) {
          this.quotesChanged(batch, market, book);
        }
        for (const id of [makerId, takerId]) {
          const order = this.orders.get(id);
          if (order) {
            batch.touched.add(order);
          }
        }
      },
      onDone: (id, reason) => {
        const order = this.orders.get(id);
        if (order) {
          order.ended = order.budgetSpent ? "filled" : reason;
          this.finish(order);
        } else if (market.books[book].quotes.delete(id)) {
          this.quoteSeqs.delete(id);
          this.quotesChanged(this.batch as Batch, market, book);
        }
      },
      onCancelled: (id, _remaining, reason) => {
        const order = this.orders.get(id);
        if (!order) {
          return;
        }
        // A market buy by amount that stopped with asks still on the book stopped because what is
        // left of its budget cannot pay one more lot: it is filled, and the dust goes back.
        const spentBudget =
          reason === "market_remainder" &&
          order.row.quoteAmount !== null &&
          !order.filledQty.isZero() &&
          market.books[book].engine.bestAsk() !== undefined;
        order.cancelReason = spentBudget ? null : reason;
        order.budgetSpent = spentBudget;
      },
      onRejected: (id, reason) => {
        const order = this.orders.get(id);
        if (order) {
          order.ended = "rejected";
          order.cancelReason = reason;
          this.finish(order);
        }
      },
    };
  }

  finish(order: LiveOrder) {
    const batch = this.batch as Batch;
    batch.touched.add(order);
    const postings = releasePostings(order);
    if (postings.length > 0) {
      batch.releases.push({ order, postings });
    }
  }

  execute(market: Market, command: SpotCommand, rows: Map<number, LiveOrder["row"]>, batch: Batch) {
    if (command.t === "quote") {
      this.requote(market, command, batch);
      return;
    }
    if (command.t === "cancel") {
      // Only a resting order can be cancelled here; one not taken yet is cancelled when it is
      // taken (the API marked it), and a finished one has nothing left to cancel.
      const order = this.orders.get(command.id);
      const engine = order ? market.books[order.row.book].engine : null;
      if (engine?.has(command.id)) {
        engine.cancel(command.id);
        batch.depthChanged.add(market.symbol);
      } else if (!order && command.id > 0) {
        // Its place command may have been lost and come later from the sweep.
        this.earlyCancels.add(command.id);
      }
      return;
    }
    const row = rows.get(command.id);
    // Only a pending order is placed: a second command for it (a sweep and a late append) is a no-op.
    if (row?.status !== "pending" || this.orders.has(row.id)) {
      return;
    }
    const order = new LiveOrder(row);
    this.orders.set(row.id, order);
    batch.touched.add(order);
    order.queueSeq = ++this.queueCounter;
    batch.depthChanged.add(market.symbol);
    if (this.earlyCancels.delete(row.id)) {
      order.ended = "cancelled";
      order.cancelReason = "user";
      this.finish(order);
      return;
    }
    const engine = market.books[row.book].engine;
    const lots =
      row.quantity === null ? null : toLots(new MoneyDecimal(row.quantity).toFixed(), market.lotSize);
    if (row.type === "market" && row.side === "buy" && row.quoteAmount !== null) {
      const units = toQuoteUnits(
        new MoneyDecimal(row.quoteAmount).toFixed(),
        market.tickSize,
        market.lotSize,
      );
      engine.marketBuyQuote(row.id, row.userId, units ?? 0);
    } else if (row.type === "market" && row.side === "sell") {
      engine.marketQty(row.id, row.userId, "sell", lots ?? 0);
    } else {
      const ticks = toTicks(new MoneyDecimal(row.price ?? "0").toFixed(), market.tickSize);
      engine.limit(row.id, row.userId, row.side, ticks ?? 0, lots ?? 0, row.timeInForce);
    }
  }

  /** Replaces the market maker's ladder in one book: old quotes out, new ones in. */
  requote(market: Market, command: Extract<SpotCommand, { t: "quote" }>, batch: Batch) {
    const state = market.books[command.book];
    if (!state) {
      return;
    }
    for (const id of [...state.quotes]) {
      state.engine.cancel(id);
      this.quoteSeqs.delete(id);
    }
    state.quotes.clear();
    batch.depthChanged.add(market.symbol);
    this.quotesChanged(batch, market, command.book);
    // Drawn before an operator changed the market's grid (or sent by an older market maker): its
    // ticks and lots would mean other prices and sizes now. The book waits for the next ladder.
    const sameGrid =
      typeof command.tick === "string" &&
      typeof command.lot === "string" &&
      new MoneyDecimal(command.tick).eq(market.tickSize) &&
      new MoneyDecimal(command.lot).eq(market.lotSize);
    if (!sameGrid) {
      return;
    }
    for (const [side, levels] of [
      ["buy", command.bids],
      ["sell", command.asks],
    ] as const) {
      for (const [price, lots] of levels) {
        const id = this.nextQuoteId--;
        const queueSeq = ++this.queueCounter;
        if (state.engine.limit(id, MARKET_MAKER_OWNER, side, price, Math.max(lots, market.minLots))) {
          if (state.engine.has(id)) {
            state.quotes.add(id);
            this.quoteSeqs.set(id, queueSeq);
          }
        }
      }
    }
  }

  private quotesChanged(batch: Batch, market: Market, book: Book) {
    batch.quoteBooks.set(`${market.symbol} ${book}`, { symbol: market.symbol, book });
  }

  /** The current quotes of the books whose quotes changed, for `spot_quotes`. */
  quoteRows(batch: Batch): QuoteRow[] {
    const rows: QuoteRow[] = [];
    for (const { symbol, book } of batch.quoteBooks.values()) {
      const market = this.markets.get(symbol);
      for (const id of market?.books[book].quotes ?? []) {
        const quote = market?.books[book].engine.get(id);
        const queueSeq = this.quoteSeqs.get(id);
        if (market && quote && queueSeq !== undefined) {
          rows.push({
            queue_seq: queueSeq,
            symbol,
            book,
            side: quote.side,
            price: fromTicks(quote.price, market.tickSize),
            quantity: fromLots(quote.qty, market.lotSize),
          });
        }
      }
    }
    return rows;
  }
}
