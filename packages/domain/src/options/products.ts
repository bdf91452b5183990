import type { TOptionPeriod, TOptionProduct } from "@northstar/shared/contracts/options";
import { isMarketOpen, type TradingHours } from "@northstar/shared/markets";
import type { PolicyValue } from "@northstar/shared/policy";
import type { DbOrTx } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { loadCatalogue } from "../markets/index.ts";
import { getPolicy } from "../policy/index.ts";

export type OptionProducts = PolicyValue<"options.products">;

const toPeriod = (
  p: OptionProducts[string]["periods"][number],
  hours: TradingHours,
  now: Date,
): TOptionPeriod => ({
  seconds: p.seconds,
  payout_rate: p.payoutRate,
  fee_rate: p.feeRate,
  min: p.min,
  max: p.max,
  expiry_open: isMarketOpen(hours, new Date(now.getTime() + p.seconds * 1000)),
});

/**
 * The products a user may buy, as the policy defines them, for enabled instruments in the catalogue,
 * with whether each market is open now and, per period, whether an option bought now would expire
 * inside its trading hours; by the catalogue's order.
 */
export async function listOptionProducts(db: DbOrTx, now = new Date()): Promise<TOptionProduct[]> {
  const [products, catalogue] = await Promise.all([getPolicy(db, "options.products"), loadCatalogue(db)]);
  return catalogue
    .filter((i) => products[i.symbol])
    .map((i) => {
      const product = products[i.symbol] as OptionProducts[string];
      return {
        symbol: i.symbol,
        name: i.name,
        display_decimals: i.displayDecimals,
        open: isMarketOpen(i.tradingHours, now),
        tie: product.tie,
        periods: [...product.periods]
          .sort((a, b) => a.seconds - b.seconds)
          .map((p) => toPeriod(p, i.tradingHours, now)),
      };
    });
}

/** The product and period a purchase names, or OPTION_NOT_AVAILABLE. */
export async function findOptionProduct(db: DbOrTx, symbol: string, seconds: number, now = new Date()) {
  const product = (await listOptionProducts(db, now)).find((p) => p.symbol === symbol);
  const period = product?.periods.find((p) => p.seconds === seconds);
  if (!product || !period) {
    throw new AppError("OPTION_NOT_AVAILABLE", {}, product ? "period_seconds" : "symbol");
  }
  return { product, period };
}
