import type { Depth } from "@northstar/shared/markets";
import { MoneyDecimal } from "@northstar/shared/money";
import { hashString, mulberry32 } from "@northstar/shared/random";

/**
 * A quote ladder around the feed's last price, for instruments that have no order book of ours
 * (contract and option underlyings, and spot markets until their book has orders). It shows the
 * liquidity the price source quotes, so levels are the feed price ± whole ticks and sizes are
 * deterministic for (symbol, price): the same state always shows the same ladder.
 */
export function referenceDepth(
  symbol: string,
  price: string,
  tickSize: string,
  lotSize: string,
  levels = 15,
): Depth {
  const tick = new MoneyDecimal(tickSize);
  const last = new MoneyDecimal(price);
  const lastTicks = last.div(tick).toDecimalPlaces(0);
  // About 2 basis points between levels, never less than one tick.
  const step = MoneyDecimal.max(1, last.times("0.0002").div(tick).toDecimalPlaces(0));
  // Sizes worth roughly 2,000 to 40,000 quote units, in whole lots.
  const lot = new MoneyDecimal(lotSize);
  const random = mulberry32(hashString(`${symbol}:${price}`));
  const size = () => {
    const notional = 2000 + Math.floor(random() * 38_000);
    const lots = MoneyDecimal.max(1, new MoneyDecimal(notional).div(last).div(lot).toDecimalPlaces(0));
    return lots.times(lot).toFixed();
  };
  const bids: [string, string][] = [];
  const asks: [string, string][] = [];
  for (let i = 1; i <= levels; i++) {
    const bidTicks = lastTicks.minus(step.times(i));
    if (bidTicks.gt(0)) {
      bids.push([bidTicks.times(tick).toFixed(), size()]);
    }
    asks.push([lastTicks.plus(step.times(i)).times(tick).toFixed(), size()]);
  }
  return { bids, asks };
}
