import { MoneyDecimal } from "@northstar/shared/money";
import type { SpotOrderStatus } from "@northstar/shared/state-machines";
import type { AccountRef, Book, PostingInput } from "../../ledger/index.ts";
import type { DoneReason, Side } from "../engine/types.ts";
import type { SpotOrderRow } from "../order-view.ts";

type Dec = InstanceType<typeof MoneyDecimal>;
const ZERO = new MoneyDecimal(0);

/** A user order the matcher holds in memory: its row as last committed plus this batch's changes. */
export class LiveOrder {
  /** The status the database has now (the compare-and-set's `from`). */
  committedStatus: SpotOrderStatus;
  filledQty: Dec;
  filledQuote: Dec;
  fee: Dec;
  held: Dec;
  ended: DoneReason | "rejected" | null = null;
  /** A market buy by amount that stopped only because its budget could not pay one more lot. */
  budgetSpent = false;
  cancelReason: string | null;
  /** The limit this order may pay per unit (limit and protected market buys); null for buy-by-quote. */
  readonly limitPrice: Dec | null;
  /** Its place in the queue of its price level (see `spot_orders.queue_seq`); set when it is taken. */
  queueSeq: number | null;

  constructor(public row: SpotOrderRow) {
    this.committedStatus = row.status;
    this.filledQty = new MoneyDecimal(row.filledQty);
    this.filledQuote = new MoneyDecimal(row.filledQuote);
    this.fee = new MoneyDecimal(row.fee);
    this.held = new MoneyDecimal(row.held);
    this.cancelReason = row.cancelReason;
    this.limitPrice = row.price === null ? null : new MoneyDecimal(row.price);
    this.queueSeq = row.queueSeq;
  }

  /** The status after this batch: what the engine said, or resting with or without fills. */
  get status(): SpotOrderStatus {
    if (this.ended === "rejected") {
      return "rejected";
    }
    if (this.ended) {
      return this.ended;
    }
    return this.filledQty.isZero() ? "open" : "partial";
  }

  get finished(): boolean {
    return this.ended !== null;
  }
}

/** A fill settled in memory, waiting for its trade id (assigned when the batch is written). */
export interface PendingTrade {
  /** Assigned when the batch is written. */
  id?: number;
  symbol: string;
  book: Book;
  price: string;
  quantity: string;
  quoteQty: string;
  takerSide: Side;
  makerOrderId: number | null;
  takerOrderId: number | null;
  makerUserId: number | null;
  takerUserId: number | null;
  makerFee: string;
  takerFee: string;
  at: number;
  postings: PostingInput[];
  /**
   * The fill's USDT value, counted toward the withdrawal turnover of its users (spot/turnover.ts);
   * null on the demo book and in a market not quoted in USDT.
   */
  valueUsdt: string | null;
}

export interface FeeRates {
  maker: Dec;
  taker: Dec;
}

/** The market facts settlement needs. */
export interface MarketInfo {
  symbol: string;
  base: string;
  quote: string;
  /** decimals the ledger keeps each currency to: fees are rounded up to them, never under-charged */
  baseDecimals: number;
  quoteDecimals: number;
}

const user = (order: LiveOrder, currency: string, bucket: "available" | "held"): AccountRef => ({
  userId: order.row.userId,
  book: order.row.book,
  wallet: "exchange",
  currency,
  bucket,
});

function push(postings: PostingInput[], account: AccountRef, amount: Dec) {
  if (!amount.isZero()) {
    postings.push({ account, amount: amount.toFixed() });
  }
}

/**
 * One side of a fill. A user's order pays from its hold (a limit buy at its own limit, releasing
 * the price improvement at once) and receives the other currency less the fee; the market maker, a
 * system account, pays and receives without fee.
 */
function settleSide(
  postings: PostingInput[],
  market: MarketInfo,
  book: Book,
  order: LiveOrder | undefined,
  side: Side,
  qty: Dec,
  quoteQty: Dec,
  rate: Dec,
): Dec {
  if (!order) {
    const mm = (currency: string): AccountRef => ({ system: "market_maker", book, currency });
    push(postings, mm(market.base), side === "buy" ? qty : qty.neg());
    push(postings, mm(market.quote), side === "buy" ? quoteQty.neg() : quoteQty);
    return ZERO;
  }
  const fees = (currency: string): AccountRef => ({ system: "fees", book, currency });
  let fee: Dec;
  if (side === "buy") {
    const used = order.limitPrice ? order.limitPrice.times(qty) : quoteQty;
    fee = qty.times(rate).toDecimalPlaces(market.baseDecimals, MoneyDecimal.ROUND_UP);
    push(postings, user(order, market.quote, "held"), used.neg());
    push(postings, user(order, market.quote, "available"), used.minus(quoteQty));
    push(postings, user(order, market.base, "available"), qty.minus(fee));
    push(postings, fees(market.base), fee);
    order.held = order.held.minus(used);
  } else {
    fee = quoteQty.times(rate).toDecimalPlaces(market.quoteDecimals, MoneyDecimal.ROUND_UP);
    push(postings, user(order, market.base, "held"), qty.neg());
    push(postings, user(order, market.quote, "available"), quoteQty.minus(fee));
    push(postings, fees(market.quote), fee);
    order.held = order.held.minus(qty);
  }
  order.filledQty = order.filledQty.plus(qty);
  order.filledQuote = order.filledQuote.plus(quoteQty);
  order.fee = order.fee.plus(fee);
  return fee;
}

/** Settles one fill between a maker and a taker (either may be the market maker: no order). */
export function settleTrade(
  market: MarketInfo,
  book: Book,
  fill: {
    maker: LiveOrder | undefined;
    taker: LiveOrder | undefined;
    price: string;
    quantity: string;
    takerSide: Side;
    at: number;
  },
  rates: FeeRates,
): PendingTrade {
  const qty = new MoneyDecimal(fill.quantity);
  const quoteQty = new MoneyDecimal(fill.price).times(qty);
  const postings: PostingInput[] = [];
  const makerSide: Side = fill.takerSide === "buy" ? "sell" : "buy";
  const makerFee = settleSide(postings, market, book, fill.maker, makerSide, qty, quoteQty, rates.maker);
  const takerFee = settleSide(postings, market, book, fill.taker, fill.takerSide, qty, quoteQty, rates.taker);
  // Turnover is measured in USDT; every spot market quotes in USDT today. A market quoted in another
  // currency would need a price here, and until one exists its fills are not counted.
  const valueUsdt = book === "real" && market.quote === "USDT" ? quoteQty.toFixed() : null;
  return {
    symbol: market.symbol,
    book,
    price: fill.price,
    quantity: fill.quantity,
    quoteQty: quoteQty.toFixed(),
    takerSide: fill.takerSide,
    makerOrderId: fill.maker?.row.id ?? null,
    takerOrderId: fill.taker?.row.id ?? null,
    makerUserId: fill.maker?.row.userId ?? null,
    takerUserId: fill.taker?.row.userId ?? null,
    makerFee: makerFee.toFixed(),
    takerFee: takerFee.toFixed(),
    at: fill.at,
    postings,
    valueUsdt,
  };
}

/** Postings that return what a finished order still holds; empty when it holds nothing. */
export function releasePostings(order: LiveOrder): PostingInput[] {
  if (order.held.isZero()) {
    return [];
  }
  const amount = order.held;
  order.held = ZERO;
  return [
    { account: user(order, order.row.holdCurrency, "held"), amount: amount.neg().toFixed() },
    { account: user(order, order.row.holdCurrency, "available"), amount: amount.toFixed() },
  ];
}
