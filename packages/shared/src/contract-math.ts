import { MoneyDecimal } from "./money.ts";

/**
 * The money rules of leveraged contracts (isolated margin, settled in USDT), shared by the server,
 * which enforces them, and the web, which shows them before the user confirms. Every figure is a
 * decimal string; nothing here uses a JS number for money.
 *
 * Money that moves (margin, fees, overnight interest, a close's PnL and released margin) is kept to
 * USDT's 6 decimals, the precision the currencies table holds it to: what the user pays is rounded
 * up, what the user receives is rounded down, so no wallet holds a fraction it cannot move out. The
 * liquidation rule and the liquidation price it shows work to 8 decimals (`CONTRACT_RULE_DECIMALS`):
 * they decide and index, they move no money.
 */
export const CONTRACT_DECIMALS = 6;
export const CONTRACT_RULE_DECIMALS = 8;

export type ContractSide = "long" | "short";

const d = (v: string | MoneyDecimal) => new MoneyDecimal(v);
const up = (v: MoneyDecimal, places = CONTRACT_DECIMALS) => v.toDecimalPlaces(places, MoneyDecimal.ROUND_UP);
const down = (v: MoneyDecimal, places = CONTRACT_DECIMALS) =>
  v.toDecimalPlaces(places, MoneyDecimal.ROUND_DOWN);
const floor = (v: MoneyDecimal, places = CONTRACT_DECIMALS) =>
  v.toDecimalPlaces(places, MoneyDecimal.ROUND_FLOOR);
const sign = (side: ContractSide) => (side === "long" ? 1 : -1);

/** Price × lots × contract size: the value the position controls. */
export function notional(price: string, lots: string, contractSize: string): MoneyDecimal {
  return d(price).times(lots).times(contractSize);
}

/** The margin an opening needs: notional ÷ leverage, rounded up. */
export function initialMargin(price: string, lots: string, contractSize: string, leverage: number): string {
  return up(notional(price, lots, contractSize).div(leverage)).toFixed();
}

/** The trading fee of an opening or a closing: notional × fee rate, rounded up. */
export function tradeFee(price: string, lots: string, contractSize: string, feeRate: string): string {
  return up(notional(price, lots, contractSize).times(feeRate)).toFixed();
}

/** One day's overnight interest: notional at the given price × the daily rate, rounded up. */
export function overnightCharge(price: string, lots: string, contractSize: string, rate: string): string {
  return up(notional(price, lots, contractSize).times(rate)).toFixed();
}

/**
 * Unrealised profit (negative: loss) at `price`, rounded down (a profit is never overstated) to
 * `places` decimals: USDT's for what a close pays, the rule's for the liquidation rule.
 */
export function unrealisedPnl(
  side: ContractSide,
  entry: string,
  price: string,
  lots: string,
  contractSize: string,
  places = CONTRACT_DECIMALS,
): string {
  return floor(d(price).minus(entry).times(lots).times(contractSize).times(sign(side)), places).toFixed();
}

/** The margin the position must keep at `price`: notional × maintenance margin rate, rounded up to the rule's decimals. */
export function maintenanceMargin(price: string, lots: string, contractSize: string, rate: string): string {
  return up(notional(price, lots, contractSize).times(rate), CONTRACT_RULE_DECIMALS).toFixed();
}

export interface PositionTerms {
  side: ContractSide;
  entryPrice: string;
  lots: string;
  contractSize: string;
  /** The position's margin now (initial plus added, less reduced and charged). */
  margin: string;
  maintenanceRate: string;
}

/** Margin + unrealised PnL at `price`, to the rule's decimals. */
export function equity(p: PositionTerms, price: string): MoneyDecimal {
  return d(p.margin).plus(
    unrealisedPnl(p.side, p.entryPrice, price, p.lots, p.contractSize, CONTRACT_RULE_DECIMALS),
  );
}

/**
 * The liquidation rule: a position is closed when its equity at the feed price falls to the
 * maintenance margin at that price (or below). Exact, in decimals: the engine asks this, never the
 * rounded liquidation price it shows.
 */
export function isLiquidatable(p: PositionTerms, price: string): boolean {
  return equity(p, price).lte(maintenanceMargin(price, p.lots, p.contractSize, p.maintenanceRate));
}

/**
 * The price at which equity meets the maintenance margin, for display and for indexing: long
 * (entry·Q − margin) ÷ (Q·(1 − mmr)), short (entry·Q + margin) ÷ (Q·(1 + mmr)), Q = lots × size.
 * "0" when a long cannot be liquidated at any positive price.
 */
export function liquidationPrice(p: PositionTerms): string {
  const q = d(p.lots).times(p.contractSize);
  if (q.isZero()) {
    return "0";
  }
  if (p.side === "long") {
    const price = d(p.entryPrice)
      .times(q)
      .minus(p.margin)
      .div(q.times(d("1").minus(p.maintenanceRate)));
    return price.lte(0) ? "0" : up(price, CONTRACT_RULE_DECIMALS).toFixed();
  }
  const price = d(p.entryPrice)
    .times(q)
    .plus(p.margin)
    .div(q.times(d("1").plus(p.maintenanceRate)));
  return down(price, CONTRACT_RULE_DECIMALS).toFixed();
}

/** Equity ÷ margin at `price` (1 = no profit or loss; liquidation comes near the maintenance rate × leverage). */
export function riskRate(p: PositionTerms, price: string): string {
  if (d(p.margin).isZero()) {
    return "0";
  }
  return equity(p, price).div(p.margin).toDecimalPlaces(4, MoneyDecimal.ROUND_DOWN).toFixed();
}

export interface CloseInput {
  side: ContractSide;
  entryPrice: string;
  exitPrice: string;
  /** Lots closed now, and the lots the position holds before this close. */
  closeLots: string;
  lots: string;
  contractSize: string;
  margin: string;
  feeRate: string;
}

export interface CloseSettlement {
  /** The part of the margin this close releases (all of it on a full close). */
  marginReleased: string;
  /** The trade's result: what the house pays (positive) or receives (negative). */
  pnl: string;
  /** The closing fee actually taken (never more than what the margin has left after a loss). */
  fee: string;
  /** What goes back to the user's available balance: released margin + pnl − fee, never below 0. */
  payout: string;
  /** The loss beyond the released margin, which the insurance account covers; never the user's. */
  shortfall: string;
}

/**
 * Settles a full or partial close at `exitPrice`. The user never loses more than the margin the
 * close releases: a loss beyond it is the shortfall (paid to the house by the insurance account),
 * and the fee is taken only from what is left. Postings: user held −released, user available
 * +payout, fees +fee, house −pnl, insurance −shortfall; they sum to zero.
 */
export function settleClose(c: CloseInput): CloseSettlement {
  const full = d(c.closeLots).eq(c.lots);
  const released = full ? d(c.margin) : down(d(c.margin).times(c.closeLots).div(c.lots));
  const pnl = d(unrealisedPnl(c.side, c.entryPrice, c.exitPrice, c.closeLots, c.contractSize));
  const capped = MoneyDecimal.max(pnl, released.neg());
  const left = released.plus(capped);
  const fee = MoneyDecimal.min(d(tradeFee(c.exitPrice, c.closeLots, c.contractSize, c.feeRate)), left);
  return {
    marginReleased: released.toFixed(),
    pnl: pnl.toFixed(),
    fee: fee.toFixed(),
    payout: left.minus(fee).toFixed(),
    shortfall: capped.minus(pnl).toFixed(),
  };
}

/** Whether `lots` is a positive multiple of `step`. */
export function isLotMultiple(lots: string, step: string): boolean {
  const l = d(lots);
  return l.gt(0) && l.mod(step).isZero();
}

/** TP and SL must lie on the profitable and the losing side of `price` for the direction. */
export function tpSlProblem(
  side: ContractSide,
  price: string,
  takeProfit: string | null | undefined,
  stopLoss: string | null | undefined,
): "take_profit" | "stop_loss" | null {
  const p = d(price);
  if (takeProfit && (side === "long" ? d(takeProfit).lte(p) : d(takeProfit).gte(p))) {
    return "take_profit";
  }
  if (stopLoss && (side === "long" ? d(stopLoss).gte(p) : d(stopLoss).lte(p))) {
    return "stop_loss";
  }
  return null;
}

/** Whether a tick at `price` fills a pending limit order: a long at or below its limit, a short at or above. */
export function limitCrossed(side: ContractSide, limit: string, price: string): boolean {
  return side === "long" ? d(price).lte(limit) : d(price).gte(limit);
}

/**
 * The price a limit order fills at on a tick that crosses it: the better of its limit and the tick
 * for the user (long: the lower, short: the higher). A long limit placed far above the market fills
 * at the market, never at a worse price than the feed offered.
 */
export function limitFillPrice(side: ContractSide, limit: string, price: string): string {
  const better = side === "long" ? d(price).lt(limit) : d(price).gt(limit);
  return (better ? d(price) : d(limit)).toFixed();
}

/**
 * The fee a limit order pays when it fills at `fillPrice`: the fee at that price, but never more than
 * the fee held (the one the user confirmed at the limit price). The rest of the held fee is released.
 */
export function limitFillFee(
  fillPrice: string,
  lots: string,
  contractSize: string,
  feeRate: string,
  heldFee: string,
): string {
  return MoneyDecimal.min(tradeFee(fillPrice, lots, contractSize, feeRate), heldFee).toFixed();
}

/** Whether a tick at `price` reaches the take-profit (long: at or above; short: at or below). */
export function takeProfitHit(side: ContractSide, tp: string, price: string): boolean {
  return side === "long" ? d(price).gte(tp) : d(price).lte(tp);
}

/** Whether a tick at `price` reaches the stop-loss (long: at or below; short: at or above). */
export function stopLossHit(side: ContractSide, sl: string, price: string): boolean {
  return side === "long" ? d(price).lte(sl) : d(price).gte(sl);
}
