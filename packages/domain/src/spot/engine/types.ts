/**
 * Types of the spot order book engine. Everything is an integer: prices in ticks, quantities in lots,
 * market-buy budgets in quote units (1 quote unit = 1 tick × 1 lot, i.e. tickSize × lotSize of the quote
 * currency). Order ids and owner ids are caller-supplied safe integers: numbers keep the hot path free of
 * string hashing and allocation, and the matcher already has numeric ids from its database sequence.
 */

export type Side = "buy" | "sell";

/** gtc rests what does not fill; ioc cancels it; post_only is refused when it would trade at all. */
export type TimeInForce = "gtc" | "ioc" | "post_only";

export type RejectReason =
  | "invalid_id"
  | "invalid_owner"
  | "invalid_side"
  | "invalid_price"
  | "invalid_qty"
  | "invalid_tif"
  | "below_min_qty"
  | "duplicate_id"
  | "would_take"
  | "unknown_order";

/**
 * Why an order's remainder left the book: `user` (cancel command), `ioc_remainder`, `market_remainder`
 * (a market order never rests) or `self_trade` (a resting order met a newer order of its own owner).
 */
export type CancelReason = "user" | "ioc_remainder" | "market_remainder" | "self_trade";

export type DoneReason = "filled" | "cancelled";

/** Text for a user, per refusal; the matcher maps these to its own error codes. */
export const REJECT_TEXT: Readonly<Record<RejectReason, string>> = {
  invalid_id: "invalid order id",
  invalid_owner: "invalid owner",
  invalid_side: "invalid side",
  invalid_price: "invalid price",
  invalid_qty: "invalid quantity",
  invalid_tif: "invalid time in force",
  below_min_qty: "quantity below minimum",
  duplicate_id: "duplicate order id",
  would_take: "post-only order would take liquidity",
  unknown_order: "unknown order",
};

/**
 * Receives the engine's events synchronously, in order, as positional arguments: nothing is allocated
 * per event, and one sink class per process keeps the call sites monomorphic. A sink must not call back
 * into the book it listens to.
 *
 * Life of an order: rejected (never entered), or accepted → trade* → then either it rests (no event) or
 * it ends with exactly one done. A cancelled remainder is reported by cancelled (with the reason and the
 * amount) immediately before its done("cancelled").
 */
export interface EngineSink {
  /** price is 0 for a market order; qty is 0 and quote the budget for a market buy by quote. */
  onAccepted(id: number, owner: number, side: Side, price: number, qty: number, quote: number): void;
  /** One fill, at the resting (maker) order's price. */
  onTrade(
    makerId: number,
    takerId: number,
    price: number,
    qty: number,
    makerOwner: number,
    takerOwner: number,
    takerSide: Side,
  ): void;
  onDone(id: number, reason: DoneReason): void;
  /** remaining is in the order's own unit: lots, or unspent quote units for a market buy by quote. */
  onCancelled(id: number, remaining: number, reason: CancelReason): void;
  onRejected(id: number, reason: RejectReason): void;
}

/** A sink that ignores everything (the default). */
export const NOOP_SINK: EngineSink = {
  onAccepted() {},
  onTrade() {},
  onDone() {},
  onCancelled() {},
  onRejected() {},
};

/** A resting order as reported by snapshot(): qty is what is left on the book, in lots. */
export interface RestingOrder {
  id: number;
  owner: number;
  side: Side;
  price: number;
  qty: number;
}

/** Resting orders per side in priority order: best price first, oldest first within a price. */
export interface BookSnapshot {
  bids: RestingOrder[];
  asks: RestingOrder[];
}

/** [price in ticks, total lots] per level, best first. */
export interface Depth {
  bids: [number, number][];
  asks: [number, number][];
}

export interface OrderBookOptions {
  /** Smallest quantity in lots an order may have when it is placed (default 1). */
  minQty?: number;
  sink?: EngineSink;
}

/** Thrown for misuse that is a programming error (bad options, a snapshot that cannot be restored). */
export class EngineError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "EngineError";
  }
}
