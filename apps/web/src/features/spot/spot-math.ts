import type { TOrderSide, TOrderType } from "@northstar/shared/contracts/spot";
import { DECIMAL_STRING, MoneyDecimal, money } from "@northstar/shared/money";

/*
 * The order form's arithmetic, in decimals (a JS number never holds money): the tick and lot grid,
 * the amount a share of the balance buys or sells, and the estimates the form shows before sending.
 * The server decides the real figures; these say what to expect.
 */

/** Market buys are entered as a base quantity or as the quote amount to spend. */
export type BuyBy = "quantity" | "total";

/** A typed amount that parses as a positive decimal, or null. */
export function positive(value: string | undefined | null): MoneyDecimal | null {
  const v = value?.trim();
  if (!v || !DECIMAL_STRING.test(v)) {
    return null;
  }
  const d = money(v);
  return d.isPositive() && !d.isZero() ? d : null;
}

/** Whether `value` is a whole number of `step`s (the tick or lot grid). */
export function onGrid(value: MoneyDecimal, step: string): boolean {
  const s = money(step);
  return s.isZero() || value.mod(s).isZero();
}

/** `value` rounded down to the grid of `step`, as a plain decimal string without trailing zeros. */
export function floorToStep(value: MoneyDecimal, step: string): string {
  const s = money(step);
  if (s.isZero()) {
    return value.toFixed();
  }
  return value.div(s).floor().times(s).toFixed();
}

/** How many decimals a grid step carries ("0.001" → 3, "1" → 0). */
export function stepDecimals(step: string): number {
  return money(step).decimalPlaces();
}

/** A rate as a percentage for reading: "0.001" → "0.1%". */
export function percent(rate: string): string {
  return `${money(rate).times(100).toDecimalPlaces(4).toFixed()}%`;
}

/** What the form knows about the market when it estimates. */
export interface MarketQuote {
  bestBid?: string | undefined;
  bestAsk?: string | undefined;
  last?: string | undefined;
  makerFee: string;
  takerFee: string;
  /** a market buy by quantity pays at most this share above the best ask */
  marketProtection: string;
  tickSize: string;
  /** a budget buys whole lots only */
  lotSize?: string;
}

/**
 * The most a market buy by quantity pays for one unit: the best ask raised by the protection share,
 * rounded UP to the tick (what the server holds and will not pass).
 */
export function protectionPrice(quote: MarketQuote): MoneyDecimal | null {
  const ask = referencePrice("buy", quote);
  if (!ask) {
    return null;
  }
  const raised = ask.times(money("1").plus(quote.marketProtection));
  const tick = money(quote.tickSize);
  return tick.isZero() ? raised : raised.div(tick).toDecimalPlaces(0, MoneyDecimal.ROUND_UP).times(tick);
}

export interface Draft {
  side: TOrderSide;
  type: TOrderType;
  by: BuyBy;
  price?: string | undefined;
  quantity?: string | undefined;
  quoteAmount?: string | undefined;
}

export interface Estimate {
  /** the limit price, or the best price on the other side for a market order */
  price: MoneyDecimal | null;
  /** base quantity (estimated for a market buy by total) */
  quantity: MoneyDecimal | null;
  /** quote amount (estimated except for a market buy by total) */
  total: MoneyDecimal | null;
  /** a market buy by quantity: the most it may cost, at the protection limit */
  maxTotal: MoneyDecimal | null;
  /** whether the order would trade at once (taker) or rest in the book (maker) */
  role: "maker" | "taker";
  feeRate: string;
  /** fee taken from what is received: base on a buy, quote on a sell */
  fee: MoneyDecimal | null;
  /** what the paying side puts up, in the paying currency (quote on a buy, base on a sell) */
  pay: MoneyDecimal | null;
}

/** The price a market order meets first: the best ask for a buy, the best bid for a sell, else the last price. */
export function referencePrice(side: TOrderSide, quote: MarketQuote): MoneyDecimal | null {
  return positive(side === "buy" ? (quote.bestAsk ?? quote.last) : (quote.bestBid ?? quote.last));
}

/** The estimates the form shows for a draft order. */
export function estimate(draft: Draft, quote: MarketQuote): Estimate {
  const qty = positive(draft.quantity);
  if (draft.type === "limit") {
    const price = positive(draft.price);
    const crosses =
      price !== null &&
      (draft.side === "buy"
        ? positive(quote.bestAsk)?.lte(price) === true
        : positive(quote.bestBid)?.gte(price) === true);
    const role = crosses ? "taker" : "maker";
    const feeRate = crosses ? quote.takerFee : quote.makerFee;
    const total = price && qty ? price.times(qty) : null;
    return {
      price,
      quantity: qty,
      total,
      maxTotal: null,
      role,
      feeRate,
      fee: feeOf(draft.side, qty, total, feeRate),
      pay: draft.side === "buy" ? total : qty,
    };
  }
  const price = referencePrice(draft.side, quote);
  const feeRate = quote.takerFee;
  if (draft.side === "buy" && draft.by === "total") {
    const total = positive(draft.quoteAmount);
    const quantity =
      total && price ? positive(floorToStep(total.div(price), quote.lotSize ?? "0.00000001")) : null;
    return {
      price,
      quantity,
      total,
      maxTotal: null,
      role: "taker",
      feeRate,
      fee: feeOf("buy", quantity, total, feeRate),
      pay: total,
    };
  }
  const total = price && qty ? price.times(qty) : null;
  const cap = draft.side === "buy" ? protectionPrice(quote) : null;
  const maxTotal = cap && qty ? cap.times(qty) : null;
  return {
    price,
    quantity: qty,
    total,
    maxTotal,
    role: "taker",
    feeRate,
    fee: feeOf(draft.side, qty, total, feeRate),
    pay: draft.side === "buy" ? maxTotal : qty,
  };
}

function feeOf(
  side: TOrderSide,
  quantity: MoneyDecimal | null,
  total: MoneyDecimal | null,
  rate: string,
): MoneyDecimal | null {
  const base = side === "buy" ? quantity : total;
  return base ? base.times(rate) : null;
}

/** What the amount slider fills in: the field to set and its value, for `share` percent of `available`. */
export function amountForShare(
  draft: Draft,
  share: number,
  available: string,
  quote: MarketQuote,
  grid: { lotSize: string; quoteDecimals: number },
): { field: "quantity" | "quote_amount"; value: string } | null {
  const funds = money(available).times(share).div(100);
  if (draft.side === "sell") {
    return { field: "quantity", value: nonZero(floorToStep(funds, grid.lotSize)) };
  }
  if (draft.type === "market" && draft.by === "total") {
    return {
      field: "quote_amount",
      value: nonZero(funds.toDecimalPlaces(grid.quoteDecimals, MoneyDecimal.ROUND_DOWN).toFixed()),
    };
  }
  const unit = draft.type === "limit" ? positive(draft.price) : protectionPrice(quote);
  if (!unit) {
    return null;
  }
  return { field: "quantity", value: nonZero(floorToStep(funds.div(unit), grid.lotSize)) };
}

/** An amount of zero clears the field rather than filling in "0". */
const nonZero = (value: string) => (money(value).isZero() ? "" : value);

/** The share of `available` that `pay` uses, 0–100, for the slider's position. */
export function shareOf(pay: MoneyDecimal | null, available: string): number {
  const funds = money(available);
  if (!pay || funds.isZero() || !funds.isPositive()) {
    return 0;
  }
  return Math.min(100, Math.max(0, pay.div(funds).times(100).toDecimalPlaces(0).toNumber()));
}
