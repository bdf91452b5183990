import { MoneyDecimal } from "@northstar/shared/money";
import { and, asc, eq, inArray, lt } from "drizzle-orm";
import type { Redis } from "ioredis";
import { currencies } from "../../currencies/currencies.table.ts";
import type { Db } from "../../db/client.ts";
import type { Book } from "../../ledger/ledger.table.ts";
import type { AccountIdCache } from "../../ledger/post-entry.ts";
import { loadCatalogue } from "../../markets/catalogue.ts";
import { commandStream, parseCommand, type SpotCommand, trimStreams } from "../commands.ts";
import type { EngineSink } from "../engine/types.ts";
import { fromLots, fromTicks, toLots, toQuoteUnits, toTicks } from "../engine/units.ts";
import { spotOrders, spotQuotes, spotStreamCursors } from "../spot.table.ts";
import { spotPolicy } from "../terms.ts";
import { Batch, type Entry, type Market, type QuoteRow, writeBatch } from "./batch.ts";
import { marketsSignature, type Restorable, restingOrder, restoreBooks, spotMarkets } from "./markets.ts";
import { MatcherPublisher } from "./publish.ts";
import { LiveOrder, releasePostings, settleTrade } from "./settlement.ts";

const MARKET_MAKER_OWNER = 0;
/** A command that fails alone this many times in a row is stepped over (see skip). */
const POISON_AFTER = 5;
const TRIM_EVERY_MS = 10_000;

export interface MatcherOptions {
  db: Db;
  /** A connection of its own: the matcher blocks on it reading streams. */
  redis: Redis;
  prefix: string;
  log?: (line: string) => void;
  /** Most commands read per market per batch. */
  batchSize?: number;
  blockMs?: number;
  /** Pending orders older than this whose command never arrived are taken from the database. */
  sweepAfterMs?: number;
  /** How often the catalogue is read for spot markets added or changed since the books were built. */
  catalogueCheckMs?: number;
}

/**
 * The spot matcher: the single writer of every spot book (the worker runs it under a Redis lease).
 * It reads each market's command stream in order, applies a batch to the in-memory engines, writes
 * the fills, order states, ledger entries and the stream cursors in one transaction, and only then
 * publishes depth, trades and the users' order events. After a restart it rebuilds the books from
 * the open orders and reads on from the committed cursors, so every command is applied exactly once.
 */
export class SpotMatcher {
  private readonly markets = new Map<string, Market>();
  private readonly orders = new Map<number, LiveOrder>();
  private readonly cursors = new Map<string, string>();
  private readonly accountIds: AccountIdCache = new Map();
  /** Opened by `start` and closed by `stop`, so a matcher can be stopped and started again. */
  private publisher!: MatcherPublisher;
  private readonly log: (line: string) => void;
  private nextQuoteId = -1;
  /** Cancels that arrived before their order (kept in memory only; bounded below). */
  private readonly earlyCancels = new Set<number>();
  private batch: Batch | null = null;
  private running = false;
  private loop: Promise<void> = Promise.resolve();
  private lastSweep = 0;
  private failures = 0;
  private lastTrim = 0;
  private lastCatalogueCheck = 0;
  private catalogueSignature = "";
  /** The queue place (`queue_seq`) of each resting market-maker quote, by engine id. */
  private readonly quoteSeqs = new Map<number, number>();
  /** The last queue place given; on from the highest still resting after a rebuild. */
  private queueCounter = 0;

  constructor(private readonly options: MatcherOptions) {
    this.log = options.log ?? (() => {});
  }

  async start(): Promise<void> {
    this.publisher = new MatcherPublisher(this.options.redis.duplicate(), this.options.prefix);
    await this.rebuild();
    this.running = true;
    this.loop = this.run();
    this.log(`spot matcher: ${this.markets.size} markets, ${this.orders.size} resting orders`);
  }

  /** Stops after the batch in progress; nothing half-applied is left in memory to matter. */
  async stop(): Promise<void> {
    this.running = false;
    await this.loop;
    this.publisher.close();
  }

  private async run(): Promise<void> {
    while (this.running) {
      try {
        const entries = await this.read();
        if (!this.running) {
          break;
        }
        // Only once the streams are drained: then a pending order's command is not just queued.
        if (entries.length === 0 && Date.now() - this.lastSweep > (this.options.sweepAfterMs ?? 5000)) {
          entries.push(...(await this.sweep()));
          if (this.earlyCancels.size > 10_000) {
            this.earlyCancels.clear();
          }
        }
        const [only] = entries;
        if (only && entries.length === 1 && this.failures >= POISON_AFTER) {
          await this.skip(only);
        } else if (entries.length > 0) {
          await this.apply(entries);
        }
        this.failures = 0;
        if (Date.now() - this.lastTrim > TRIM_EVERY_MS) {
          this.lastTrim = Date.now();
          await trimStreams(this.options.redis, this.options.prefix, this.cursors);
        }
        if (Date.now() - this.lastCatalogueCheck > (this.options.catalogueCheckMs ?? 10_000)) {
          await this.followCatalogue();
        }
      } catch (error) {
        this.failures++;
        this.log(`spot matcher: batch failed (${this.failures}): ${(error as Error).stack ?? error}`);
        await new Promise((r) => setTimeout(r, Math.min(5000, 100 * this.failures)));
        // Memory may hold half a batch: start again from what the database says.
        await this.rebuild().catch((e) => this.log(`spot matcher: rebuild failed: ${e}`));
      }
    }
  }

  private async read(): Promise<Entry[]> {
    const symbols = [...this.markets.keys()];
    if (symbols.length === 0) {
      await new Promise((r) => setTimeout(r, this.options.blockMs ?? 50));
      return [];
    }
    // After failures, one command at a time, so a command that cannot be applied is found alone.
    const count = this.failures > 1 ? 1 : (this.options.batchSize ?? 500);
    const reply = (await this.options.redis.xread(
      "COUNT",
      count,
      "BLOCK",
      this.options.blockMs ?? 50,
      "STREAMS",
      ...symbols.map((s) => commandStream(this.options.prefix, s)),
      ...symbols.map((s) => this.cursors.get(s) ?? "0-0"),
    )) as [string, [string, string[]][]][] | null;
    const entries: Entry[] = [];
    const streamPrefix = commandStream(this.options.prefix, "");
    for (const [key, messages] of reply ?? []) {
      const symbol = key.slice(streamPrefix.length);
      for (const [streamId, fields] of messages) {
        const command = parseCommand(fields);
        // An unreadable command is skipped (its cursor still advances): nothing can apply it.
        entries.push({ symbol, streamId, command: command ?? { t: "cancel", id: 0 } });
      }
    }
    return entries;
  }

  /** Pending orders whose command did not arrive (the API stopped between commit and append). */
  private async sweep(): Promise<Entry[]> {
    this.lastSweep = Date.now();
    const cutoff = new Date(Date.now() - (this.options.sweepAfterMs ?? 5000));
    const rows = await this.options.db
      .select({ id: spotOrders.id, symbol: spotOrders.symbol })
      .from(spotOrders)
      .where(and(eq(spotOrders.status, "pending"), lt(spotOrders.createdAt, cutoff)))
      .orderBy(spotOrders.id)
      .limit(1000);
    return rows
      .filter((r) => this.markets.has(r.symbol))
      .map((r) => ({ symbol: r.symbol, streamId: null, command: { t: "place", id: r.id } }));
  }

  /**
   * An operator may add a spot market, or change a market's grid (only while it has no open orders),
   * at any time: then the books are built again from the database, as after a restart. Disabled
   * markets stay: their resting orders can still be cancelled, though no new order is accepted.
   */
  private async followCatalogue(): Promise<void> {
    this.lastCatalogueCheck = Date.now();
    const signature = marketsSignature(await loadCatalogue(this.options.db, { withDisabled: true }));
    if (signature !== this.catalogueSignature) {
      this.log("spot matcher: the catalogue's spot markets changed; rebuilding the books");
      await this.rebuild();
    }
  }

  /** Loads the markets, the committed cursors and every resting order; the engines start again. */
  private async rebuild(): Promise<void> {
    const { db } = this.options;
    const [instruments, decimals, cursorRows, resting, quotes] = await Promise.all([
      loadCatalogue(db, { withDisabled: true }),
      db
        .select({ code: currencies.code, decimals: currencies.decimals })
        .from(currencies)
        .orderBy(asc(currencies.code)),
      db.select().from(spotStreamCursors).orderBy(asc(spotStreamCursors.symbol)),
      db
        .select()
        .from(spotOrders)
        .where(inArray(spotOrders.status, ["open", "partial"]))
        .orderBy(spotOrders.id),
      // Restored quotes take ids in this order.
      db.select().from(spotQuotes).orderBy(asc(spotQuotes.queueSeq)),
    ]);
    this.lastCatalogueCheck = Date.now();
    this.catalogueSignature = marketsSignature(instruments);
    this.markets.clear();
    this.orders.clear();
    this.cursors.clear();
    this.quoteSeqs.clear();
    for (const market of spotMarkets(instruments, decimals, (m, book) => this.sinkFor(m, book))) {
      this.markets.set(market.symbol, market);
    }
    for (const row of cursorRows) {
      this.cursors.set(row.symbol, row.lastId);
    }
    const entries: Restorable[] = [];
    for (const row of resting) {
      const market = this.markets.get(row.symbol);
      if (market) {
        this.orders.set(row.id, new LiveOrder(row));
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
      const market = this.markets.get(quote.symbol);
      const price = market && toTicks(new MoneyDecimal(quote.price).toFixed(), market.tickSize);
      const qty = market && toLots(new MoneyDecimal(quote.quantity).toFixed(), market.lotSize);
      // A quote off the market's grid (the grid changed since) is left out, like its ladder would be.
      if (market && price && qty) {
        const id = this.nextQuoteId--;
        market.books[quote.book].quotes.add(id);
        this.quoteSeqs.set(id, quote.queueSeq);
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
    restoreBooks(this.markets, entries);
    // Above every place still taken, of markets served or not (a quote's place is its row's key).
    this.queueCounter = 0;
    for (const seq of [...resting.map((r) => r.queueSeq ?? 0), ...quotes.map((q) => q.queueSeq)]) {
      this.queueCounter = Math.max(this.queueCounter, seq);
    }
    for (const market of this.markets.values()) {
      this.publisher.depth(market);
    }
    await this.publisher.flush();
  }

  /** Engine events of one book, recorded into the batch in progress. */
  private sinkFor(market: Market, book: Book): EngineSink {
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

  private finish(order: LiveOrder) {
    const batch = this.batch as Batch;
    batch.touched.add(order);
    const postings = releasePostings(order);
    if (postings.length > 0) {
      batch.releases.push({ order, postings });
    }
  }

  /**
   * Steps over a command that failed alone again and again, so one bad command cannot stop a market:
   * an order it would have placed is rejected and its hold released. Logged; should never happen.
   */
  private async skip(entry: Entry): Promise<void> {
    this.log(`spot matcher: skipping ${JSON.stringify(entry)} after ${this.failures} failures`);
    const batch = new Batch({ maker: new MoneyDecimal(0), taker: new MoneyDecimal(0) }, Date.now());
    let order: LiveOrder | null = null;
    if (entry.command.t === "place") {
      const [row] = await this.options.db
        .select()
        .from(spotOrders)
        .where(eq(spotOrders.id, entry.command.id));
      if (row?.status === "pending") {
        order = new LiveOrder(row);
        order.ended = "rejected";
        order.cancelReason = "matcher_error";
        batch.touched.add(order);
        const postings = releasePostings(order);
        if (postings.length > 0) {
          batch.releases.push({ order, postings });
        }
      }
    }
    if (entry.streamId) {
      batch.cursors.set(entry.symbol, entry.streamId);
    }
    try {
      await this.commit(batch);
    } catch (error) {
      if (!order || batch.releases.length === 0) {
        throw error;
      }
      // The hold itself is what cannot be moved: reject the order and leave its hold to operators.
      this.log(`spot matcher: order ${order.row.id} rejected with its hold left in place: ${error}`);
      order.held = new MoneyDecimal(order.row.held);
      batch.releases.length = 0;
      await this.commit(batch);
    }
    for (const [symbol, id] of batch.cursors) {
      this.cursors.set(symbol, id);
    }
    await this.publisher.batch(batch, this.markets);
  }

  /** Applies a batch in memory, writes it in one transaction, then publishes it. */
  private async apply(entries: Entry[]): Promise<void> {
    const { db } = this.options;
    const policy = await spotPolicy(db);
    const batch = new Batch(
      {
        maker: new MoneyDecimal(policy["spot.fee.maker"]),
        taker: new MoneyDecimal(policy["spot.fee.taker"]),
      },
      Date.now(),
    );
    const placeIds = entries
      .filter((e) => e.command.t === "place")
      .map((e) => (e.command as { id: number }).id);
    const rows = placeIds.length
      ? await db.select().from(spotOrders).where(inArray(spotOrders.id, placeIds)).orderBy(asc(spotOrders.id))
      : [];
    const byId = new Map(rows.map((r) => [r.id, r]));

    this.batch = batch;
    try {
      for (const entry of entries) {
        const market = this.markets.get(entry.symbol);
        if (entry.streamId) {
          batch.cursors.set(entry.symbol, entry.streamId);
        }
        if (!market) {
          continue;
        }
        this.execute(market, entry.command, byId, batch);
      }
    } finally {
      this.batch = null;
    }
    await this.commit(batch);
    for (const [symbol, id] of batch.cursors) {
      this.cursors.set(symbol, id);
    }
    await this.publisher.batch(batch, this.markets);
  }

  private execute(market: Market, command: SpotCommand, rows: Map<number, LiveOrder["row"]>, batch: Batch) {
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
  private requote(market: Market, command: Extract<SpotCommand, { t: "quote" }>, batch: Batch) {
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
  private quoteRows(batch: Batch): QuoteRow[] {
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

  /** Writes the batch, then brings the in-memory orders up to what was committed. */
  private async commit(batch: Batch): Promise<void> {
    batch.quoteRows = this.quoteRows(batch);
    await writeBatch(this.options.db, batch, this.cursors, this.accountIds);
    for (const order of batch.touched) {
      order.committedStatus = order.status;
      order.row = {
        ...order.row,
        status: order.status,
        filledQty: order.filledQty.toFixed(),
        filledQuote: order.filledQuote.toFixed(),
        fee: order.fee.toFixed(),
        held: order.held.toFixed(),
        cancelReason: order.cancelReason,
        updatedAt: new Date(batch.at),
      };
      if (order.finished) {
        this.orders.delete(order.row.id);
      }
    }
  }
}
