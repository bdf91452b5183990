import { MoneyDecimal } from "./money.ts";

/** The settlement rule of an options order, used by the settlement job and shown by the web. */
export interface OptionTerms {
  direction: "up" | "down";
  amount: string;
  fee: string;
  payoutRate: string;
  tie: "refund" | "loss";
}

export interface OptionOutcome {
  status: "won" | "lost" | "tied";
  /** What returns to the user's option wallet (0 on a loss). */
  payout: string;
  /** payout − amount − fee: the user's result; the house's is its negative. */
  profit: string;
}

/**
 * Every figure is kept to the decimals of the settlement currency (`decimals`, USDT's as the
 * currencies table holds them): what the user pays (the fee) is rounded up, what the user receives
 * (the win's profit) is rounded down, so no wallet is credited a fraction it cannot move.
 */

/** The fee on an amount at a rate, rounded up to the currency's decimals. */
export function optionFee(amount: string, feeRate: string, decimals: number): string {
  return new MoneyDecimal(amount).times(feeRate).toDecimalPlaces(decimals, MoneyDecimal.ROUND_UP).toFixed();
}

/** What a win pays back: the amount plus amount × payout rate, the profit rounded down to the currency's decimals. */
export function optionWinPayout(amount: string, payoutRate: string, decimals: number): string {
  const amt = new MoneyDecimal(amount);
  return amt.plus(amt.times(payoutRate).toDecimalPlaces(decimals, MoneyDecimal.ROUND_DOWN)).toFixed();
}

/**
 * Up wins when the settlement price is above the purchase price, down when below; equal prices are
 * a tie, which refunds the amount (not the fee) or pays nothing, as the product says.
 */
export function optionOutcome(
  terms: OptionTerms,
  purchasePrice: string,
  settlementPrice: string,
  decimals: number,
): OptionOutcome {
  const cmp = new MoneyDecimal(settlementPrice).comparedTo(purchasePrice);
  let status: OptionOutcome["status"];
  let payout: string;
  if (cmp === 0) {
    status = "tied";
    payout = terms.tie === "refund" ? new MoneyDecimal(terms.amount).toFixed() : "0";
  } else if (cmp > 0 === (terms.direction === "up")) {
    status = "won";
    payout = optionWinPayout(terms.amount, terms.payoutRate, decimals);
  } else {
    status = "lost";
    payout = "0";
  }
  const profit = new MoneyDecimal(payout).minus(terms.amount).minus(terms.fee).toFixed();
  return { status, payout, profit };
}
