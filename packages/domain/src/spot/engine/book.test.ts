import { describe, expect, it } from "vitest";
import { OrderBook } from "./book.ts";
import type { IntMap } from "./int-map.ts";
import type { OrderNode } from "./price-levels.ts";
import { RecordingSink } from "./recording-sink.ts";
import { EngineError } from "./types.ts";

function setup(minQty = 1) {
  const sink = new RecordingSink();
  const book = new OrderBook({ minQty, sink });
  return { sink, book };
}

describe("limit orders", () => {
  it("rests a GTC order that does not cross", () => {
    const { sink, book } = setup();
    expect(book.limit(1, 10, "buy", 100, 5)).toBe(true);
    expect(sink.take()).toEqual([["accepted", 1, 10, "buy", 100, 5, 0]]);
    expect(book.bestBid()).toBe(100);
    expect(book.bestAsk()).toBeUndefined();
    expect(book.get(1)).toEqual({ id: 1, owner: 10, side: "buy", price: 100, qty: 5 });
  });

  it("fills at the maker's price, best price first, and rests the remainder", () => {
    const { sink, book } = setup();
    book.limit(1, 10, "sell", 101, 2);
    book.limit(2, 11, "sell", 100, 3);
    sink.take();
    book.limit(3, 20, "buy", 105, 10);
    expect(sink.take()).toEqual([
      ["accepted", 3, 20, "buy", 105, 10, 0],
      ["trade", 2, 3, 100, 3, 11, 20, "buy"],
      ["done", 2, "filled"],
      ["trade", 1, 3, 101, 2, 10, 20, "buy"],
      ["done", 1, "filled"],
    ]);
    expect(book.bestBid()).toBe(105);
    expect(book.get(3)?.qty).toBe(5);
    expect(book.bestAsk()).toBeUndefined();
  });

  it("keeps FIFO at one price", () => {
    const { sink, book } = setup();
    book.limit(1, 1, "sell", 100, 2);
    book.limit(2, 2, "sell", 100, 2);
    book.limit(3, 3, "sell", 100, 2);
    sink.take();
    book.limit(4, 9, "buy", 100, 5);
    const trades = sink.take().filter((e) => e[0] === "trade");
    expect(trades.map((t) => [t[1], t[4]])).toEqual([
      [1, 2],
      [2, 2],
      [3, 1],
    ]);
  });

  it("a partial fill keeps the maker's place in the queue", () => {
    const { sink, book } = setup();
    book.limit(1, 1, "buy", 100, 5);
    book.limit(2, 2, "buy", 100, 5);
    book.limit(3, 9, "sell", 100, 3);
    expect(book.get(1)?.qty).toBe(2);
    expect(book.snapshot().bids.map((o) => o.id)).toEqual([1, 2]);
    sink.take();
    book.limit(4, 9, "sell", 100, 3);
    expect(sink.take()).toEqual([
      ["accepted", 4, 9, "sell", 100, 3, 0],
      ["trade", 1, 4, 100, 2, 1, 9, "sell"],
      ["done", 1, "filled"],
      ["trade", 2, 4, 100, 1, 2, 9, "sell"],
      ["done", 4, "filled"],
    ]);
    expect(book.get(2)?.qty).toBe(4);
  });

  it("IOC fills what crosses and cancels the rest", () => {
    const { sink, book } = setup();
    book.limit(1, 1, "sell", 100, 2);
    book.limit(2, 1, "sell", 102, 2);
    sink.take();
    book.limit(3, 2, "buy", 101, 5, "ioc");
    expect(sink.take()).toEqual([
      ["accepted", 3, 2, "buy", 101, 5, 0],
      ["trade", 1, 3, 100, 2, 1, 2, "buy"],
      ["done", 1, "filled"],
      ["cancelled", 3, 3, "ioc_remainder"],
      ["done", 3, "cancelled"],
    ]);
    expect(book.has(3)).toBe(false);
    expect(book.bestBid()).toBeUndefined();
    expect(book.bestAsk()).toBe(102);
  });

  it("post-only rests when it does not cross and is rejected when it would take", () => {
    const { sink, book } = setup();
    book.limit(1, 1, "sell", 100, 2);
    sink.take();
    expect(book.limit(2, 2, "buy", 100, 1, "post_only")).toBe(false);
    expect(sink.take()).toEqual([["rejected", 2, "would_take"]]);
    expect(book.limit(3, 2, "buy", 99, 1, "post_only")).toBe(true);
    expect(sink.take()).toEqual([["accepted", 3, 2, "buy", 99, 1, 0]]);
    expect(book.bestBid()).toBe(99);
  });

  it("an IOC that crosses nothing is cancelled whole", () => {
    const { sink, book } = setup();
    book.limit(1, 1, "buy", 100, 4, "ioc");
    expect(sink.take()).toEqual([
      ["accepted", 1, 1, "buy", 100, 4, 0],
      ["cancelled", 1, 4, "ioc_remainder"],
      ["done", 1, "cancelled"],
    ]);
    expect(book.size).toBe(0);
  });
});

describe("market orders", () => {
  it("by quantity sweeps levels and cancels what the book cannot fill", () => {
    const { sink, book } = setup();
    book.limit(1, 1, "buy", 100, 2);
    book.limit(2, 1, "buy", 99, 2);
    sink.take();
    book.marketQty(3, 2, "sell", 6);
    expect(sink.take()).toEqual([
      ["accepted", 3, 2, "sell", 0, 6, 0],
      ["trade", 1, 3, 100, 2, 1, 2, "sell"],
      ["done", 1, "filled"],
      ["trade", 2, 3, 99, 2, 1, 2, "sell"],
      ["done", 2, "filled"],
      ["cancelled", 3, 2, "market_remainder"],
      ["done", 3, "cancelled"],
    ]);
    expect(book.size).toBe(0);
  });

  it("by quantity on an empty book is accepted then cancelled whole, never rests", () => {
    const { sink, book } = setup();
    expect(book.marketQty(1, 1, "buy", 3)).toBe(true);
    expect(sink.take().slice(1)).toEqual([
      ["cancelled", 1, 3, "market_remainder"],
      ["done", 1, "cancelled"],
    ]);
    expect(book.size).toBe(0);
  });

  it("buy by quote stops when the budget is spent and never overspends", () => {
    const { sink, book } = setup();
    book.limit(1, 1, "sell", 10, 3); // 30 units for all
    book.limit(2, 1, "sell", 12, 5); // 60 units for all
    sink.take();
    book.marketBuyQuote(3, 2, 55); // 3×10 = 30, then 2×12 = 24, 1 unit left < 12
    expect(sink.take()).toEqual([
      ["accepted", 3, 2, "buy", 0, 0, 55],
      ["trade", 1, 3, 10, 3, 1, 2, "buy"],
      ["done", 1, "filled"],
      ["trade", 2, 3, 12, 2, 1, 2, "buy"],
      ["cancelled", 3, 1, "market_remainder"],
      ["done", 3, "cancelled"],
    ]);
    expect(book.get(2)?.qty).toBe(3);
  });

  it("buy by quote that spends the budget exactly is filled", () => {
    const { sink, book } = setup();
    book.limit(1, 1, "sell", 10, 3);
    sink.take();
    book.marketBuyQuote(2, 2, 20);
    expect(sink.take()).toEqual([
      ["accepted", 2, 2, "buy", 0, 0, 20],
      ["trade", 1, 2, 10, 2, 1, 2, "buy"],
      ["done", 2, "filled"],
    ]);
  });

  it("buy by quote smaller than one lot at the best ask buys nothing", () => {
    const { sink, book } = setup();
    book.limit(1, 1, "sell", 10, 3);
    sink.take();
    book.marketBuyQuote(2, 2, 9);
    expect(sink.take()).toEqual([
      ["accepted", 2, 2, "buy", 0, 0, 9],
      ["cancelled", 2, 9, "market_remainder"],
      ["done", 2, "cancelled"],
    ]);
    expect(book.get(1)?.qty).toBe(3);
  });
});

describe("self-trade prevention (cancel resting)", () => {
  it("cancels the owner's resting order and goes on matching others", () => {
    const { sink, book } = setup();
    book.limit(1, 7, "sell", 100, 2);
    book.limit(2, 8, "sell", 100, 2);
    book.limit(3, 7, "sell", 101, 2);
    sink.take();
    book.limit(4, 7, "buy", 101, 3);
    expect(sink.take()).toEqual([
      ["accepted", 4, 7, "buy", 101, 3, 0],
      ["cancelled", 1, 2, "self_trade"],
      ["done", 1, "cancelled"],
      ["trade", 2, 4, 100, 2, 8, 7, "buy"],
      ["done", 2, "filled"],
      ["cancelled", 3, 2, "self_trade"],
      ["done", 3, "cancelled"],
    ]);
    // Nothing of the owner's is left on the ask side; the taker's remainder rests.
    expect(book.bestAsk()).toBeUndefined();
    expect(book.get(4)?.qty).toBe(1);
  });

  it("applies to market orders too", () => {
    const { sink, book } = setup();
    book.limit(1, 7, "buy", 100, 2);
    sink.take();
    book.marketQty(2, 7, "sell", 1);
    expect(sink.take()).toEqual([
      ["accepted", 2, 7, "sell", 0, 1, 0],
      ["cancelled", 1, 2, "self_trade"],
      ["done", 1, "cancelled"],
      ["cancelled", 2, 1, "market_remainder"],
      ["done", 2, "cancelled"],
    ]);
  });
});

describe("refusals", () => {
  it("rejects quantities below the book's minimum", () => {
    const { sink, book } = setup(5);
    expect(book.limit(1, 1, "buy", 100, 4)).toBe(false);
    expect(book.marketQty(2, 1, "buy", 4)).toBe(false);
    expect(sink.take()).toEqual([
      ["rejected", 1, "below_min_qty"],
      ["rejected", 2, "below_min_qty"],
    ]);
    expect(book.limit(3, 1, "buy", 100, 5)).toBe(true);
  });

  it("rejects bad numbers", () => {
    const { sink, book } = setup();
    book.limit(1.5, 1, "buy", 100, 1);
    book.limit(2, Number.NaN, "buy", 100, 1);
    book.limit(3, 1, "hold" as never, 100, 1);
    book.limit(4, 1, "buy", 0, 1);
    book.limit(5, 1, "buy", -3, 1);
    book.limit(6, 1, "buy", 100.5, 1);
    book.limit(7, 1, "buy", 100, 0);
    book.limit(8, 1, "buy", 100, -1);
    book.limit(9, 1, "buy", 100, 2.5);
    book.limit(10, 1, "buy", 100, 1, "fok" as never);
    book.marketQty(11, 1, "buy", 0);
    book.marketBuyQuote(12, 1, 0);
    book.marketBuyQuote(13, 1, Number.POSITIVE_INFINITY);
    expect(sink.take()).toEqual([
      ["rejected", 1.5, "invalid_id"],
      ["rejected", 2, "invalid_owner"],
      ["rejected", 3, "invalid_side"],
      ["rejected", 4, "invalid_price"],
      ["rejected", 5, "invalid_price"],
      ["rejected", 6, "invalid_price"],
      ["rejected", 7, "invalid_qty"],
      ["rejected", 8, "invalid_qty"],
      ["rejected", 9, "invalid_qty"],
      ["rejected", 10, "invalid_tif"],
      ["rejected", 11, "invalid_qty"],
      ["rejected", 12, "invalid_qty"],
      ["rejected", 13, "invalid_qty"],
    ]);
    expect(book.size).toBe(0);
  });

  it("rejects an id that is already resting, for any order type", () => {
    const { sink, book } = setup();
    book.limit(1, 1, "buy", 100, 1);
    sink.take();
    book.limit(1, 2, "sell", 200, 1);
    book.marketQty(1, 2, "sell", 1);
    book.marketBuyQuote(1, 2, 1000);
    expect(sink.take()).toEqual([
      ["rejected", 1, "duplicate_id"],
      ["rejected", 1, "duplicate_id"],
      ["rejected", 1, "duplicate_id"],
    ]);
    expect(book.get(1)?.qty).toBe(1);
  });
});

describe("cancel", () => {
  it("cancels a resting order and reports its remaining quantity", () => {
    const { sink, book } = setup();
    book.limit(1, 1, "buy", 100, 5);
    book.limit(2, 2, "sell", 100, 2);
    sink.take();
    expect(book.cancel(1)).toBe(true);
    expect(sink.take()).toEqual([
      ["cancelled", 1, 3, "user"],
      ["done", 1, "cancelled"],
    ]);
    expect(book.bestBid()).toBeUndefined();
  });

  it("rejects an unknown id, and one already cancelled", () => {
    const { sink, book } = setup();
    expect(book.cancel(42)).toBe(false);
    book.limit(1, 1, "buy", 100, 5);
    book.cancel(1);
    sink.take();
    expect(book.cancel(1)).toBe(false);
    expect(sink.take()).toEqual([["rejected", 1, "unknown_order"]]);
  });

  it("unlinks from the middle of a queue and keeps the others in order", () => {
    const { book } = setup();
    for (let id = 1; id <= 5; id++) {
      book.limit(id, id, "sell", 100, 1);
    }
    book.cancel(3);
    book.cancel(1);
    book.cancel(5);
    expect(book.snapshot().asks.map((o) => o.id)).toEqual([2, 4]);
    expect(book.depth(5).asks).toEqual([[100, 2]]);
  });

  it("cancels on a deep level without walking the queue: a few link reads per cancel", () => {
    const { book } = setup();
    const n = 2000;
    for (let id = 1; id <= n; id++) {
      book.limit(id, id, "buy", 100, 1);
    }
    // Every read of a resting order's queue links is counted (a step count, not a stopwatch).
    let reads = 0;
    const nodes = (book as unknown as { orders: IntMap<OrderNode> }).orders;
    for (let id = 1; id <= n; id++) {
      const node = nodes.get(id) as OrderNode;
      for (const link of ["prev", "next"] as const) {
        let value = node[link];
        Object.defineProperty(node, link, {
          get: () => {
            reads++;
            return value;
          },
          set: (next: OrderNode | null) => {
            value = next;
          },
        });
      }
    }
    // The newest half first: a walk from the head would read at least n/2 links for each.
    for (let id = n; id > n / 2; id--) {
      book.cancel(id);
    }
    expect(book.size).toBe(n / 2);
    expect(reads).toBeLessThanOrEqual(4 * (n / 2));
  });
});

describe("depth and snapshot", () => {
  it("aggregates lots per price, best first, on both sides", () => {
    const { book } = setup();
    book.limit(1, 1, "buy", 99, 1);
    book.limit(2, 1, "buy", 100, 2);
    book.limit(3, 1, "buy", 100, 3);
    book.limit(4, 1, "buy", 98, 4);
    book.limit(5, 1, "sell", 102, 5);
    book.limit(6, 1, "sell", 101, 6);
    book.limit(7, 1, "sell", 101, 7);
    expect(book.depth(2)).toEqual({
      bids: [
        [100, 5],
        [99, 1],
      ],
      asks: [
        [101, 13],
        [102, 5],
      ],
    });
    expect(book.depth(10).bids).toHaveLength(3);
    expect(book.depth(0)).toEqual({ bids: [], asks: [] });
  });

  it("restores a snapshot with time priority intact", () => {
    const { sink, book } = setup();
    book.limit(1, 1, "buy", 100, 2);
    book.limit(2, 2, "buy", 101, 2);
    book.limit(3, 3, "buy", 100, 2);
    book.limit(4, 4, "sell", 103, 2);
    book.limit(5, 5, "sell", 102, 2);
    book.limit(6, 9, "sell", 100, 3); // fills 2 at 101, then 1 of order 1 at 100
    const snap = book.snapshot();
    expect(snap.bids.map((o) => [o.id, o.price, o.qty])).toEqual([
      [1, 100, 1],
      [3, 100, 2],
    ]);
    expect(snap.asks.map((o) => o.id)).toEqual([5, 4]);
    const copy = setup();
    copy.book.restore(snap);
    expect(copy.book.snapshot()).toEqual(snap);
    expect(copy.sink.take()).toEqual([]);
    // The same command on both books gives the same events and the same book.
    sink.take();
    book.limit(7, 8, "sell", 100, 2, "ioc");
    copy.book.limit(7, 8, "sell", 100, 2, "ioc");
    expect(copy.sink.take()).toEqual(sink.take());
    expect(copy.book.snapshot()).toEqual(book.snapshot());
  });

  it("refuses to restore into a non-empty book or a crossed or duplicated snapshot", () => {
    const { book } = setup();
    book.limit(1, 1, "buy", 100, 1);
    expect(() => book.restore({ bids: [], asks: [] })).toThrow(EngineError);
    const empty = () => new OrderBook();
    const bid = { id: 1, owner: 1, side: "buy" as const, price: 100, qty: 1 };
    const ask = { id: 2, owner: 1, side: "sell" as const, price: 100, qty: 1 };
    expect(() => empty().restore({ bids: [bid], asks: [ask] })).toThrow(/crossed/);
    expect(() => empty().restore({ bids: [bid, bid], asks: [] })).toThrow(EngineError);
    expect(() => empty().restore({ bids: [ask], asks: [] })).toThrow(EngineError);
  });

  it("refuses a bad minimum quantity", () => {
    expect(() => new OrderBook({ minQty: 0 })).toThrow(EngineError);
    expect(() => new OrderBook({ minQty: 1.5 })).toThrow(EngineError);
  });
});
