import { IntMap } from "./int-map.ts";
import { BookSide, type OrderNode, Pools, type PriceLevel } from "./price-levels.ts";
import {
  type BookSnapshot,
  type CancelReason,
  type Depth,
  EngineError,
  type EngineSink,
  NOOP_SINK,
  type OrderBookOptions,
  type RejectReason,
  type RestingOrder,
  type Side,
  type TimeInForce,
} from "./types.ts";

/**
 * A price-time-priority limit order book for one instrument: pure, synchronous and deterministic (the
 * same commands give the same events and the same book). Trades execute at the resting order's price.
 *
 * Commands take positional integers (ticks, lots, quote units) so that placing an order allocates
 * nothing but its resting node; results go to the EngineSink given at construction, and each command
 * also returns whether it was accepted.
 *
 * Validation order, which decides the reason when several apply: id, owner, side, price, qty, tif,
 * minimum quantity, duplicate id, then (post-only) would_take. Duplicate ids are detected among resting
 * orders only; the caller keeps ids unique over time (e.g. a database sequence).
 *
 * Self-trade prevention is "cancel resting": when an incoming order meets a resting order of the same
 * owner, the resting (older) one is cancelled with reason self_trade and matching goes on. It keeps the
 * newest intent of the owner and never blocks an incoming order on the owner's own stale quote.
 */
export class OrderBook {
  readonly minQty: number;
  private readonly sink: EngineSink;
  private readonly pools = new Pools();
  private readonly bids: BookSide;
  private readonly asks: BookSide;
  private readonly orders = new IntMap<OrderNode>();

  constructor(options: OrderBookOptions = {}) {
    const minQty = options.minQty ?? 1;
    if (!Number.isSafeInteger(minQty) || minQty < 1) {
      throw new EngineError("minQty must be a positive safe integer");
    }
    this.minQty = minQty;
    this.sink = options.sink ?? NOOP_SINK;
    this.bids = new BookSide(true, this.pools);
    this.asks = new BookSide(false, this.pools);
  }

  /** A limit order of `qty` lots at `price` ticks. Returns false when rejected. */
  limit(
    id: number,
    owner: number,
    side: Side,
    price: number,
    qty: number,
    tif: TimeInForce = "gtc",
  ): boolean {
    const sink = this.sink;
    const isBuy = side === "buy";
    if (!Number.isSafeInteger(id)) {
      return this.reject(id, "invalid_id");
    }
    if (!Number.isSafeInteger(owner)) {
      return this.reject(id, "invalid_owner");
    }
    if (!isBuy && side !== "sell") {
      return this.reject(id, "invalid_side");
    }
    if (!Number.isSafeInteger(price) || price <= 0) {
      return this.reject(id, "invalid_price");
    }
    if (!Number.isSafeInteger(qty) || qty <= 0) {
      return this.reject(id, "invalid_qty");
    }
    if (tif !== "gtc" && tif !== "ioc" && tif !== "post_only") {
      return this.reject(id, "invalid_tif");
    }
    if (qty < this.minQty) {
      return this.reject(id, "below_min_qty");
    }
    if (this.orders.has(id)) {
      return this.reject(id, "duplicate_id");
    }
    const opposite = isBuy ? this.asks : this.bids;
    // A level of the opposite side crosses when its key >= limitKey (keys grow with better prices).
    const limitKey = isBuy ? -price : price;
    if (tif === "post_only") {
      const best = opposite.best();
      if (best !== undefined && best.key >= limitKey) {
        return this.reject(id, "would_take");
      }
    }
    sink.onAccepted(id, owner, side, price, qty, 0);
    const left = this.takeQty(opposite, id, owner, side, limitKey, qty);
    if (left === 0) {
      sink.onDone(id, "filled");
    } else if (tif === "ioc") {
      this.finishCancelled(id, left, "ioc_remainder");
    } else {
      this.rest(isBuy ? this.bids : this.asks, id, owner, price, left);
    }
    return true;
  }

  /** A market order of `qty` lots; what the book cannot fill is cancelled. */
  marketQty(id: number, owner: number, side: Side, qty: number): boolean {
    const isBuy = side === "buy";
    if (!Number.isSafeInteger(id)) {
      return this.reject(id, "invalid_id");
    }
    if (!Number.isSafeInteger(owner)) {
      return this.reject(id, "invalid_owner");
    }
    if (!isBuy && side !== "sell") {
      return this.reject(id, "invalid_side");
    }
    if (!Number.isSafeInteger(qty) || qty <= 0) {
      return this.reject(id, "invalid_qty");
    }
    if (qty < this.minQty) {
      return this.reject(id, "below_min_qty");
    }
    if (this.orders.has(id)) {
      return this.reject(id, "duplicate_id");
    }
    this.sink.onAccepted(id, owner, side, 0, qty, 0);
    const left = this.takeQty(isBuy ? this.asks : this.bids, id, owner, side, -Infinity, qty);
    if (left === 0) {
      this.sink.onDone(id, "filled");
    } else {
      this.finishCancelled(id, left, "market_remainder");
    }
    return true;
  }

  /**
   * A market buy spending at most `quote` quote units (ticks × lots). It buys whole lots only, so it
   * stops when the rest of the budget cannot pay one lot at the best ask; the unspent budget is
   * reported as the cancelled remainder (done "filled" only when the budget is spent exactly). The
   * minimum quantity does not apply: the lot count is not known in advance.
   */
  marketBuyQuote(id: number, owner: number, quote: number): boolean {
    if (!Number.isSafeInteger(id)) {
      return this.reject(id, "invalid_id");
    }
    if (!Number.isSafeInteger(owner)) {
      return this.reject(id, "invalid_owner");
    }
    if (!Number.isSafeInteger(quote) || quote <= 0) {
      return this.reject(id, "invalid_qty");
    }
    if (this.orders.has(id)) {
      return this.reject(id, "duplicate_id");
    }
    this.sink.onAccepted(id, owner, "buy", 0, 0, quote);
    const left = this.takeQuote(id, owner, quote);
    if (left === 0) {
      this.sink.onDone(id, "filled");
    } else {
      this.finishCancelled(id, left, "market_remainder");
    }
    return true;
  }

  /** Cancels a resting order in O(1): its node is found by id and unlinked, the queue is not walked. */
  cancel(id: number): boolean {
    const node = this.orders.get(id);
    if (node === undefined) {
      return this.reject(id, "unknown_order");
    }
    const remaining = node.qty;
    this.drop(node);
    this.finishCancelled(id, remaining, "user");
    return true;
  }

  bestBid(): number | undefined {
    return this.bids.best()?.price;
  }

  bestAsk(): number | undefined {
    return this.asks.best()?.price;
  }

  /** Number of resting orders. */
  get size(): number {
    return this.orders.size;
  }

  has(id: number): boolean {
    return this.orders.has(id);
  }

  /** The resting order with this id, or undefined. */
  get(id: number): RestingOrder | undefined {
    const node = this.orders.get(id);
    return node === undefined ? undefined : toResting(node);
  }

  /** Up to `levels` price levels per side, best first, as [price, total lots]. */
  depth(levels: number): Depth {
    return { bids: depthOf(this.bids, levels), asks: depthOf(this.asks, levels) };
  }

  /** Every resting order per side in priority order: enough to rebuild the book with restore(). */
  snapshot(): BookSnapshot {
    return { bids: ordersOf(this.bids), asks: ordersOf(this.asks) };
  }

  /**
   * Loads resting orders into an empty book without events. Orders enter each price level in the order
   * given, so a snapshot() restores with its time priority intact.
   */
  restore(snapshot: BookSnapshot): void {
    if (this.orders.size > 0) {
      throw new EngineError("restore needs an empty book");
    }
    const all = [...snapshot.bids, ...snapshot.asks];
    for (const o of snapshot.bids) {
      if (o.side !== "buy") {
        throw new EngineError(`order ${o.id} is not a bid`);
      }
    }
    for (const o of snapshot.asks) {
      if (o.side !== "sell") {
        throw new EngineError(`order ${o.id} is not an ask`);
      }
    }
    const seen = new Set<number>();
    for (const o of all) {
      const valid =
        Number.isSafeInteger(o.id) &&
        Number.isSafeInteger(o.owner) &&
        Number.isSafeInteger(o.price) &&
        o.price > 0 &&
        Number.isSafeInteger(o.qty) &&
        o.qty > 0;
      if (!valid || seen.has(o.id)) {
        throw new EngineError(`order ${o.id} cannot be restored`);
      }
      seen.add(o.id);
    }
    let maxBid = 0;
    for (const o of snapshot.bids) {
      maxBid = Math.max(maxBid, o.price);
    }
    let minAsk = Number.POSITIVE_INFINITY;
    for (const o of snapshot.asks) {
      minAsk = Math.min(minAsk, o.price);
    }
    if (maxBid >= minAsk) {
      throw new EngineError("restored book would be crossed");
    }
    for (const o of snapshot.bids) {
      this.rest(this.bids, o.id, o.owner, o.price, o.qty);
    }
    for (const o of snapshot.asks) {
      this.rest(this.asks, o.id, o.owner, o.price, o.qty);
    }
  }

  private reject(id: number, reason: RejectReason): false {
    this.sink.onRejected(id, reason);
    return false;
  }

  private finishCancelled(id: number, remaining: number, reason: CancelReason): void {
    this.sink.onCancelled(id, remaining, reason);
    this.sink.onDone(id, "cancelled");
  }

  private rest(side: BookSide, id: number, owner: number, price: number, qty: number): void {
    const node = this.pools.node();
    node.id = id;
    node.owner = owner;
    node.qty = qty;
    side.level(price).append(node);
    this.orders.set(id, node);
  }

  /** Takes a resting order off the book (unlink, forget the id, drop an emptied level, recycle). */
  private drop(node: OrderNode): void {
    const level = node.level as PriceLevel;
    level.unlink(node);
    this.orders.delete(node.id);
    if (level.count === 0) {
      (level.isBid ? this.bids : this.asks).remove(level);
    }
    this.pools.releaseNode(node);
  }

  /** Self-trade prevention: cancels the resting order, which the caller is about to step past. */
  private cancelSelfTrade(node: OrderNode): void {
    const id = node.id;
    const remaining = node.qty;
    const level = node.level as PriceLevel;
    level.unlink(node);
    this.orders.delete(id);
    this.pools.releaseNode(node);
    this.finishCancelled(id, remaining, "self_trade");
  }

  /** Trades `fill` lots of a resting maker at its level's price; a maker filled whole leaves the book. */
  private fillMaker(
    level: PriceLevel,
    node: OrderNode,
    takerId: number,
    takerOwner: number,
    takerSide: Side,
    fill: number,
  ): void {
    this.sink.onTrade(node.id, takerId, level.price, fill, node.owner, takerOwner, takerSide);
    if (fill === node.qty) {
      level.unlink(node);
      this.orders.delete(node.id);
      this.sink.onDone(node.id, "filled");
      this.pools.releaseNode(node);
    } else {
      node.qty -= fill;
      level.total -= fill;
    }
  }

  /** Matches `qty` lots against `opposite` while its best level crosses limitKey; returns lots left. */
  private takeQty(
    opposite: BookSide,
    takerId: number,
    takerOwner: number,
    takerSide: Side,
    limitKey: number,
    qty: number,
  ): number {
    let left = qty;
    while (left > 0) {
      const level = opposite.best();
      if (level === undefined || level.key < limitKey) {
        break;
      }
      let node = level.head;
      while (node !== null && left > 0) {
        const next = node.next;
        if (node.owner === takerOwner) {
          this.cancelSelfTrade(node);
        } else {
          const fill = Math.min(node.qty, left);
          left -= fill;
          this.fillMaker(level, node, takerId, takerOwner, takerSide, fill);
        }
        node = next;
      }
      if (level.count === 0) {
        opposite.remove(level);
      }
    }
    return left;
  }

  /** Market buy against the asks with a budget in quote units; returns the unspent budget. */
  private takeQuote(takerId: number, takerOwner: number, quote: number): number {
    const asks = this.asks;
    let left = quote;
    for (;;) {
      const level = asks.best();
      if (level === undefined || left < level.price) {
        break;
      }
      const price = level.price;
      let node = level.head;
      // Lots the budget still pays at this price; the next levels only cost more.
      let affordable = Math.floor(left / price);
      while (node !== null && affordable > 0) {
        const next = node.next;
        if (node.owner === takerOwner) {
          this.cancelSelfTrade(node);
        } else {
          const fill = Math.min(node.qty, affordable);
          affordable -= fill;
          left -= fill * price;
          this.fillMaker(level, node, takerId, takerOwner, "buy", fill);
        }
        node = next;
      }
      if (level.count === 0) {
        asks.remove(level);
      } else {
        break;
      }
    }
    return left;
  }
}

function toResting(node: OrderNode): RestingOrder {
  const level = node.level as PriceLevel;
  return {
    id: node.id,
    owner: node.owner,
    side: level.isBid ? "buy" : "sell",
    price: level.price,
    qty: node.qty,
  };
}

function depthOf(side: BookSide, count: number): [number, number][] {
  const out: [number, number][] = [];
  const levels = side.levels;
  for (let i = levels.length - 1; i >= 0 && out.length < count; i--) {
    const level = levels[i] as PriceLevel;
    out.push([level.price, level.total]);
  }
  return out;
}

function ordersOf(side: BookSide): RestingOrder[] {
  const out: RestingOrder[] = [];
  const levels = side.levels;
  for (let i = levels.length - 1; i >= 0; i--) {
    for (let node = (levels[i] as PriceLevel).head; node !== null; node = node.next) {
      out.push(toResting(node));
    }
  }
  return out;
}
