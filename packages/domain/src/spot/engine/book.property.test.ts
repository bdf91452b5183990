import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { OrderBook } from "./book.ts";
import { type EngineEvent, RecordingSink } from "./recording-sink.ts";
import type { BookSnapshot, RejectReason, RestingOrder, Side, TimeInForce } from "./types.ts";

/**
 * The engine against a reference model that is slow but obviously right: resting orders in one plain
 * array, and before every single fill the opposite side is filtered and sorted afresh (price, then
 * arrival). Both must emit the same events, command by command, and end with the same book.
 */

const MIN_QTY = 2;

interface RefOrder extends RestingOrder {
  seq: number;
}

class ReferenceBook {
  resting: RefOrder[] = [];
  events: EngineEvent[] = [];
  private seq = 0;

  limit(id: number, owner: number, side: Side, price: number, qty: number, tif: TimeInForce): void {
    const refusal =
      this.checkIdOwnerSide(id, owner, side) ??
      (!Number.isSafeInteger(price) || price <= 0 ? "invalid_price" : null) ??
      this.checkQty(qty) ??
      (tif !== "gtc" && tif !== "ioc" && tif !== "post_only" ? "invalid_tif" : null) ??
      (qty < MIN_QTY ? "below_min_qty" : null) ??
      this.checkDuplicate(id) ??
      (tif === "post_only" && this.makers(side, price).length > 0 ? "would_take" : null);
    if (refusal) {
      this.events.push(["rejected", id, refusal]);
      return;
    }
    this.events.push(["accepted", id, owner, side, price, qty, 0]);
    const left = this.take(id, owner, side, price, qty);
    if (left === 0) {
      this.events.push(["done", id, "filled"]);
    } else if (tif === "ioc") {
      this.events.push(["cancelled", id, left, "ioc_remainder"], ["done", id, "cancelled"]);
    } else {
      this.resting.push({ id, owner, side, price, qty: left, seq: this.seq++ });
    }
  }

  marketQty(id: number, owner: number, side: Side, qty: number): void {
    const refusal =
      this.checkIdOwnerSide(id, owner, side) ??
      this.checkQty(qty) ??
      (qty < MIN_QTY ? "below_min_qty" : null) ??
      this.checkDuplicate(id);
    if (refusal) {
      this.events.push(["rejected", id, refusal]);
      return;
    }
    this.events.push(["accepted", id, owner, side, 0, qty, 0]);
    const left = this.take(id, owner, side, null, qty);
    if (left === 0) {
      this.events.push(["done", id, "filled"]);
    } else {
      this.events.push(["cancelled", id, left, "market_remainder"], ["done", id, "cancelled"]);
    }
  }

  marketBuyQuote(id: number, owner: number, quote: number): void {
    const refusal =
      this.checkIdOwnerSide(id, owner, "buy") ?? this.checkQty(quote) ?? this.checkDuplicate(id);
    if (refusal) {
      this.events.push(["rejected", id, refusal]);
      return;
    }
    this.events.push(["accepted", id, owner, "buy", 0, 0, quote]);
    let left = quote;
    for (;;) {
      const maker = this.makers("buy", null)[0];
      if (!maker || maker.price > left) {
        break;
      }
      if (maker.owner === owner) {
        this.selfTrade(maker);
        continue;
      }
      const fill = Math.min(maker.qty, Math.floor(left / maker.price));
      left -= fill * maker.price;
      this.fill(maker, id, owner, "buy", fill);
    }
    if (left === 0) {
      this.events.push(["done", id, "filled"]);
    } else {
      this.events.push(["cancelled", id, left, "market_remainder"], ["done", id, "cancelled"]);
    }
  }

  cancel(id: number): void {
    const order = this.resting.find((o) => o.id === id);
    if (!order) {
      this.events.push(["rejected", id, "unknown_order"]);
      return;
    }
    this.resting = this.resting.filter((o) => o !== order);
    this.events.push(["cancelled", id, order.qty, "user"], ["done", id, "cancelled"]);
  }

  snapshot(): BookSnapshot {
    const strip = ({ seq: _seq, ...o }: RefOrder): RestingOrder => o;
    const bySeq = (a: RefOrder, b: RefOrder) => a.seq - b.seq;
    return {
      bids: this.resting
        .filter((o) => o.side === "buy")
        .sort((a, b) => b.price - a.price || bySeq(a, b))
        .map(strip),
      asks: this.resting
        .filter((o) => o.side === "sell")
        .sort((a, b) => a.price - b.price || bySeq(a, b))
        .map(strip),
    };
  }

  /** Resting orders a taker on `side` with this limit (null: market) may trade with, in priority order. */
  private makers(side: Side, limit: number | null): RefOrder[] {
    const snap = this.snapshot();
    const candidates = side === "buy" ? snap.asks : snap.bids;
    const ids = candidates
      .filter((o) => limit === null || (side === "buy" ? o.price <= limit : o.price >= limit))
      .map((o) => o.id);
    return ids.map((id) => this.resting.find((o) => o.id === id) as RefOrder);
  }

  private take(id: number, owner: number, side: Side, limit: number | null, qty: number): number {
    let left = qty;
    while (left > 0) {
      const maker = this.makers(side, limit)[0];
      if (!maker) {
        break;
      }
      if (maker.owner === owner) {
        this.selfTrade(maker);
        continue;
      }
      const fill = Math.min(maker.qty, left);
      left -= fill;
      this.fill(maker, id, owner, side, fill);
    }
    return left;
  }

  private fill(maker: RefOrder, takerId: number, takerOwner: number, takerSide: Side, qty: number): void {
    this.events.push(["trade", maker.id, takerId, maker.price, qty, maker.owner, takerOwner, takerSide]);
    maker.qty -= qty;
    if (maker.qty === 0) {
      this.resting = this.resting.filter((o) => o !== maker);
      this.events.push(["done", maker.id, "filled"]);
    }
  }

  private selfTrade(maker: RefOrder): void {
    this.resting = this.resting.filter((o) => o !== maker);
    this.events.push(["cancelled", maker.id, maker.qty, "self_trade"], ["done", maker.id, "cancelled"]);
  }

  private checkIdOwnerSide(id: number, owner: number, side: Side): RejectReason | null {
    if (!Number.isSafeInteger(id)) {
      return "invalid_id";
    }
    if (!Number.isSafeInteger(owner)) {
      return "invalid_owner";
    }
    if (side !== "buy" && side !== "sell") {
      return "invalid_side";
    }
    return null;
  }

  private checkQty(qty: number): RejectReason | null {
    return !Number.isSafeInteger(qty) || qty <= 0 ? "invalid_qty" : null;
  }

  private checkDuplicate(id: number): RejectReason | null {
    return this.resting.some((o) => o.id === id) ? "duplicate_id" : null;
  }
}

// ---- commands -------------------------------------------------------------------------------------

/** How a new order gets its id: a fresh one, a recent one (resting or not), or an invalid number. */
type IdMode = { kind: "fresh" } | { kind: "reuse"; pick: number } | { kind: "bad"; value: number };

type Command =
  | { t: "limit"; id: IdMode; owner: number; side: Side; price: number; qty: number; tif: TimeInForce }
  | { t: "marketQty"; id: IdMode; owner: number; side: Side; qty: number }
  | { t: "marketQuote"; id: IdMode; owner: number; quote: number }
  | { t: "cancel"; pick: number; target: CancelTarget };

/** A cancel aims at one of the last few ids (often still resting), any id issued, or an id never used. */
const CANCEL_TARGETS = ["recent", "issued", "unknown"] as const;
type CancelTarget = (typeof CANCEL_TARGETS)[number];

const idArb: fc.Arbitrary<IdMode> = fc.oneof(
  { weight: 20, arbitrary: fc.constant({ kind: "fresh" as const }) },
  { weight: 1, arbitrary: fc.nat().map((pick) => ({ kind: "reuse" as const, pick })) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(1.5, Number.NaN, -0.5).map((value) => ({ kind: "bad" as const, value })),
  },
);
const ownerArb = fc.oneof(
  { weight: 30, arbitrary: fc.integer({ min: 1, max: 5 }) },
  { weight: 1, arbitrary: fc.constant(0.5) },
);
const sideArb = fc.constantFrom<Side>("buy", "sell");
// A narrow price band so orders cross often; a few invalid prices.
const priceArb = fc.oneof(
  { weight: 30, arbitrary: fc.integer({ min: 95, max: 105 }) },
  { weight: 1, arbitrary: fc.constantFrom(0, -1, 100.5) },
);
const qtyArb = fc.oneof(
  { weight: 30, arbitrary: fc.integer({ min: 1, max: 12 }) },
  { weight: 1, arbitrary: fc.constantFrom(0, -2, 1.5) },
);
const tifArb = fc.oneof(
  { weight: 12, arbitrary: fc.constant<TimeInForce>("gtc") },
  { weight: 4, arbitrary: fc.constantFrom<TimeInForce>("ioc", "post_only") },
  { weight: 1, arbitrary: fc.constant("fok" as TimeInForce) },
);

const commandArb: fc.Arbitrary<Command> = fc.oneof(
  {
    weight: 14,
    arbitrary: fc.record({
      t: fc.constant("limit" as const),
      id: idArb,
      owner: ownerArb,
      side: sideArb,
      price: priceArb,
      qty: qtyArb,
      tif: tifArb,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      t: fc.constant("marketQty" as const),
      id: idArb,
      owner: ownerArb,
      side: sideArb,
      qty: qtyArb,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      t: fc.constant("marketQuote" as const),
      id: idArb,
      owner: ownerArb,
      quote: fc.oneof(
        { weight: 20, arbitrary: fc.integer({ min: 1, max: 1500 }) },
        { weight: 1, arbitrary: fc.constant(0) },
      ),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      t: fc.constant("cancel" as const),
      pick: fc.nat(),
      target: fc.constantFrom(...CANCEL_TARGETS),
    }),
  },
);

/** The fields a book needs; both the engine and the reference have them. */
interface Book {
  limit(id: number, owner: number, side: Side, price: number, qty: number, tif: TimeInForce): unknown;
  marketQty(id: number, owner: number, side: Side, qty: number): unknown;
  marketBuyQuote(id: number, owner: number, quote: number): unknown;
  cancel(id: number): unknown;
}

/** Turns generated commands into concrete calls (ids resolved against the ids issued so far). */
class Driver {
  private nextId = 1;
  readonly issued: number[] = [];

  apply(cmd: Command, books: Book[]): { id: number; cmd: Command } {
    if (cmd.t === "cancel") {
      const n = this.issued.length;
      let id = 900_000 + (cmd.pick % 1000);
      if (n > 0 && cmd.target === "recent") {
        id = this.issued[n - 1 - (cmd.pick % Math.min(n, 8))] as number;
      }
      if (n > 0 && cmd.target === "issued") {
        id = this.issued[cmd.pick % n] as number;
      }
      for (const book of books) {
        book.cancel(id);
      }
      return { id, cmd };
    }
    const id = this.resolve(cmd.id);
    for (const book of books) {
      if (cmd.t === "limit") {
        book.limit(id, cmd.owner, cmd.side, cmd.price, cmd.qty, cmd.tif);
      } else if (cmd.t === "marketQty") {
        book.marketQty(id, cmd.owner, cmd.side, cmd.qty);
      } else {
        book.marketBuyQuote(id, cmd.owner, cmd.quote);
      }
    }
    return { id, cmd };
  }

  private resolve(mode: IdMode): number {
    if (mode.kind === "bad") {
      return mode.value;
    }
    const n = this.issued.length;
    // A recent id is often still resting, so reuse mostly tests duplicate_id.
    if (mode.kind === "reuse" && n > 0) {
      return this.issued[n - 1 - (mode.pick % Math.min(n, 8))] as number;
    }
    const id = this.nextId++;
    this.issued.push(id);
    return id;
  }
}

/** What each accepted order did, from the engine's events, for the conservation checks. */
interface Ledger {
  original: number;
  byQuote: boolean;
  filled: number;
  spent: number;
  cancelled: number;
  done: number;
}

function account(ledgers: Map<number, Ledger>, events: EngineEvent[]): void {
  const of = (id: number) => ledgers.get(id) as Ledger;
  for (const e of events) {
    if (e[0] === "accepted") {
      const [, id, , , , qty, quote] = e;
      ledgers.set(id, {
        original: quote > 0 ? quote : qty,
        byQuote: quote > 0,
        filled: 0,
        spent: 0,
        cancelled: 0,
        done: 0,
      });
    } else if (e[0] === "trade") {
      const [, makerId, takerId, price, qty] = e;
      of(makerId).filled += qty;
      of(takerId).filled += qty;
      of(takerId).spent += price * qty;
    } else if (e[0] === "cancelled") {
      of(e[1]).cancelled += e[2];
    } else if (e[0] === "done") {
      of(e[1]).done++;
    }
  }
}

function checkInvariants(book: OrderBook): void {
  const bid = book.bestBid();
  const ask = book.bestAsk();
  if (bid !== undefined && ask !== undefined && bid >= ask) {
    expect.fail(`crossed book: bid ${bid} ask ${ask}`);
  }
  // Level totals must match the orders they hold.
  const snap = book.snapshot();
  const aggregate = (orders: RestingOrder[]) => {
    const levels: [number, number][] = [];
    for (const o of orders) {
      const last = levels[levels.length - 1];
      if (last && last[0] === o.price) {
        last[1] += o.qty;
      } else {
        levels.push([o.price, o.qty]);
      }
    }
    return levels;
  };
  const depth = book.depth(Number.POSITIVE_INFINITY);
  const expected = { bids: aggregate(snap.bids), asks: aggregate(snap.asks) };
  if (JSON.stringify(depth) !== JSON.stringify(expected)) {
    expect(depth).toEqual(expected);
  }
  if (book.size !== snap.bids.length + snap.asks.length) {
    expect.fail("size differs from the resting orders");
  }
}

describe("engine vs reference model", () => {
  it("gives the same events and the same book for random command sequences", () => {
    fc.assert(
      fc.property(fc.array(commandArb, { maxLength: 200, size: "max" }), (commands) => {
        const sink = new RecordingSink();
        const engine = new OrderBook({ minQty: MIN_QTY, sink });
        const reference = new ReferenceBook();
        const driver = new Driver();
        const ledgers = new Map<number, Ledger>();
        for (const cmd of commands) {
          const step = driver.apply(cmd, [engine, reference]);
          const events = sink.take();
          // expect() only on a difference: it is slow, and this runs some 30,000 times.
          if (JSON.stringify(events) !== JSON.stringify(reference.events)) {
            expect({ step, events }).toEqual({ step, events: reference.events });
          }
          reference.events = [];
          account(ledgers, events);
          checkInvariants(engine);
        }
        const snap = engine.snapshot();
        expect(snap).toEqual(reference.snapshot());

        const resting = new Map([...snap.bids, ...snap.asks].map((o) => [o.id, o.qty]));
        for (const [id, ledger] of ledgers) {
          const left = resting.get(id) ?? 0;
          expect(ledger.done).toBe(left > 0 ? 0 : 1);
          if (ledger.byQuote) {
            // Never spends more than the budget; the unspent part is what was cancelled.
            expect(ledger.spent).toBeLessThanOrEqual(ledger.original);
            expect(ledger.spent + ledger.cancelled).toBe(ledger.original);
          } else {
            expect(ledger.filled + ledger.cancelled + left).toBe(ledger.original);
          }
        }
      }),
      { numRuns: 300 },
    );
  }, 60_000);

  it("a restored snapshot behaves exactly like the book it was taken from", () => {
    fc.assert(
      fc.property(
        fc.array(commandArb, { maxLength: 100, size: "max" }),
        fc.array(commandArb, { maxLength: 100, size: "max" }),
        (before, after) => {
          const sinkA = new RecordingSink();
          const a = new OrderBook({ minQty: MIN_QTY, sink: sinkA });
          const driver = new Driver();
          for (const cmd of before) {
            driver.apply(cmd, [a]);
          }
          const sinkB = new RecordingSink();
          const b = new OrderBook({ minQty: MIN_QTY, sink: sinkB });
          b.restore(a.snapshot());
          sinkA.take();
          for (const cmd of after) {
            driver.apply(cmd, [a, b]);
          }
          expect(sinkB.take()).toEqual(sinkA.take());
          expect(b.snapshot()).toEqual(a.snapshot());
        },
      ),
      { numRuns: 100 },
    );
  }, 60_000);
});
