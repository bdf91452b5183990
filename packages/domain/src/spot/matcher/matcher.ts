import { MoneyDecimal } from "@northstar/shared/money";
import { and, eq, inArray, lt } from "drizzle-orm";
import type { Redis } from "ioredis";
import type { Db } from "../../db/client.ts";
import { shardOf } from "../../leases/index.ts";
import type { AccountIdCache } from "../../ledger/index.ts";
import { loadCatalogue } from "../../markets/index.ts";
import { commandStream, parseCommand, trimStreams } from "../commands.ts";
import { ordersById } from "../order-rows.ts";
import { spotOrders } from "../spot.table.ts";
import { spotPolicy } from "../terms.ts";
import { Batch, type Entry, writeBatch } from "./batch.ts";
import { MatcherBooks } from "./books.ts";
import { marketsSignature } from "./markets.ts";
import { MatcherPublisher } from "./publish.ts";
import { loadMatcherSnapshot, restoreMatcherBooks } from "./rebuild.ts";
import { LiveOrder, releasePostings } from "./settlement.ts";

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
  /**
   * The shard this matcher serves: the markets whose `shardOf(symbol, count)` is `index`. Omitted,
   * it serves every market (one shard).
   */
  shard?: { index: number; count: number };
}

/** Whether a matcher of `shard` serves the market `symbol` (every market without a shard). */
export function servesMarket(shard: { index: number; count: number } | undefined, symbol: string): boolean {
  return !shard || shardOf(symbol, shard.count) === shard.index;
}

/**
 * The spot matcher: the single writer of its shard's spot books (the worker runs one per shard, each
 * under the shard's Redis lease; with one shard it serves every market).
 * It reads each market's command stream in order, applies a batch to the in-memory engines, writes
 * the fills, order states, ledger entries and the stream cursors in one transaction, and only then
 * publishes depth, trades and the users' order events. After a restart it rebuilds the books from
 * the open orders and reads on from the committed cursors, so every command is applied exactly once.
 */
export class SpotMatcher {
  private readonly books = new MatcherBooks();
  private readonly cursors = new Map<string, string>();
  private readonly accountIds: AccountIdCache = new Map();
  /** Opened by `start` and closed by `stop`, so a matcher can be stopped and started again. */
  private publisher!: MatcherPublisher;
  private readonly log: (line: string) => void;
  private running = false;
  private loop: Promise<void> = Promise.resolve();
  private lastSweep = 0;
  private failures = 0;
  private lastTrim = 0;
  private lastCatalogueCheck = 0;
  private catalogueSignature = "";

  private readonly serves: (symbol: string) => boolean;
  /** How the log names this matcher: its shard when there are several. */
  private readonly name: string;

  constructor(private readonly options: MatcherOptions) {
    const { shard } = options;
    const log = options.log ?? (() => {});
    this.name = shard && shard.count > 1 ? `spot matcher ${shard.index}/${shard.count}` : "spot matcher";
    this.log = (line) => log(line.replace(/^spot matcher/, this.name));
    this.serves = (symbol) => servesMarket(shard, symbol);
  }

  async start(): Promise<void> {
    this.publisher = new MatcherPublisher(this.options.redis.duplicate(), this.options.prefix);
    await this.rebuild();
    this.running = true;
    this.loop = this.run();
    this.log(`spot matcher: ${this.books.markets.size} markets, ${this.books.orders.size} resting orders`);
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
          if (this.books.earlyCancels.size > 10_000) {
            this.books.earlyCancels.clear();
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
    const symbols = [...this.books.markets.keys()];
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
    const symbols = [...this.books.markets.keys()];
    if (symbols.length === 0) {
      return [];
    }
    const rows = await this.options.db
      .select({ id: spotOrders.id, symbol: spotOrders.symbol })
      .from(spotOrders)
      .where(
        and(
          eq(spotOrders.status, "pending"),
          lt(spotOrders.createdAt, cutoff),
          // This matcher's markets only: another shard's stuck orders must not fill the page.
          inArray(spotOrders.symbol, symbols),
        ),
      )
      .orderBy(spotOrders.id)
      .limit(1000);
    return rows
      .filter((r) => this.books.markets.has(r.symbol))
      .map((r) => ({ symbol: r.symbol, streamId: null, command: { t: "place", id: r.id } }));
  }

  /**
   * An operator may add a spot market, or change a market's grid (only while it has no open orders),
   * at any time: then the books are built again from the database, as after a restart. Disabled
   * markets stay: their resting orders can still be cancelled, though no new order is accepted.
   */
  private async followCatalogue(): Promise<void> {
    this.lastCatalogueCheck = Date.now();
    const instruments = await loadCatalogue(this.options.db, { withDisabled: true });
    const signature = marketsSignature(instruments.filter((i) => this.serves(i.symbol)));
    if (signature !== this.catalogueSignature) {
      this.log("spot matcher: the catalogue's spot markets changed; rebuilding the books");
      await this.rebuild();
    }
  }

  /** Loads the markets, the committed cursors and every resting order; the engines start again. */
  private async rebuild(): Promise<void> {
    const snapshot = await loadMatcherSnapshot(this.options.db, this.serves);
    this.lastCatalogueCheck = Date.now();
    this.catalogueSignature = marketsSignature(snapshot.instruments);
    restoreMatcherBooks(this.books, snapshot);
    this.cursors.clear();
    for (const row of snapshot.cursors) {
      this.cursors.set(row.symbol, row.lastId);
    }
    for (const market of this.books.markets.values()) {
      this.publisher.depth(market);
    }
    await this.publisher.flush();
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
    await this.publisher.batch(batch, this.books.markets);
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
    const rows = placeIds.length ? await ordersById(db, placeIds) : [];
    const byId = new Map(rows.map((r) => [r.id, r]));

    this.books.batch = batch;
    try {
      for (const entry of entries) {
        const market = this.books.markets.get(entry.symbol);
        if (entry.streamId) {
          batch.cursors.set(entry.symbol, entry.streamId);
        }
        if (!market) {
          continue;
        }
        this.books.execute(market, entry.command, byId, batch);
      }
    } finally {
      this.books.batch = null;
    }
    await this.commit(batch);
    for (const [symbol, id] of batch.cursors) {
      this.cursors.set(symbol, id);
    }
    await this.publisher.batch(batch, this.books.markets);
  }

  /** Writes the batch, then brings the in-memory orders up to what was committed. */
  private async commit(batch: Batch): Promise<void> {
    batch.quoteRows = this.books.quoteRows(batch);
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
        this.books.orders.delete(order.row.id);
      }
    }
  }
}
