import type { TContractProduct } from "@northstar/shared/contracts/contracts";
import { nextDeliveryExpiry } from "@northstar/shared/contracts/delivery-expiry";
import { isMarketOpen } from "@northstar/shared/markets";
import type { DbOrTx } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { loadCatalogue } from "../markets/index.ts";
import { getPolicy } from "../policy/index.ts";

/**
 * Contracts settle in USDT, so they are offered on instruments quoted in USD or USDT (a price
 * difference is then a USDT amount); other quotes need a conversion this module does not make yet.
 */
const SETTLED_QUOTES = new Set(["USD", "USDT"]);

export interface ContractProduct extends TContractProduct {
  tradingHours: Parameters<typeof isMarketOpen>[0];
}

/**
 * Every contract product: each enabled catalogue instrument with the contract kind, on its asset
 * class's terms and leverage levels (capped by the instrument's maximum leverage and by policy
 * `contracts.maxLeverage` for its class and for itself: 100x crypto perpetuals, 25x the bitcoin CFD), with the
 * per-instrument overrides of policy `contracts.products`; the instruments of policy
 * `contracts.rollingDelivery` are delivery contracts expiring at their next weekly or quarterly
 * expiry after `now`. By the catalogue's order.
 */
export async function listContractProducts(
  db: DbOrTx,
  now = new Date(),
  options: { withDisabled?: boolean } = {},
): Promise<ContractProduct[]> {
  const [catalogue, terms, levels, overrides, caps, rolling, deliveryTime] = await Promise.all([
    loadCatalogue(db),
    getPolicy(db, "contracts.terms"),
    getPolicy(db, "contracts.leverage"),
    getPolicy(db, "contracts.products"),
    getPolicy(db, "contracts.maxLeverage"),
    getPolicy(db, "contracts.rollingDelivery"),
    getPolicy(db, "contracts.deliveryTime"),
  ]);
  const out: ContractProduct[] = [];
  for (const i of catalogue) {
    const base = terms[i.category];
    const over = overrides[i.symbol] ?? {};
    if (!i.kinds.includes("contract") || !SETTLED_QUOTES.has(i.quote) || !base) {
      continue;
    }
    if (over.enabled === false && !options.withDisabled) {
      continue;
    }
    const cap = Math.min(i.maxLeverage, caps[i.category] ?? 1, caps[i.symbol] ?? i.maxLeverage);
    const leverage = [...(over.leverage ?? levels[i.category] ?? [1])]
      .filter((l) => l <= cap)
      .sort((a, b) => a - b);
    const roll = rolling[i.symbol];
    const type = over.type ?? (roll ? "delivery" : "perpetual");
    // A fixed expiry from the products policy, else a rolling contract's next one.
    const expiresAt =
      type !== "delivery"
        ? null
        : (over.expiresAt ?? (roll ? nextDeliveryExpiry(roll, now, deliveryTime).toISOString() : null));
    out.push({
      symbol: i.symbol,
      name: i.name,
      category: i.category,
      type,
      expires_at: expiresAt ? new Date(expiresAt).toISOString() : null,
      contract_size: i.contractSize,
      lot_step: over.lotStep ?? base.lotStep,
      min_lots: over.minLots ?? base.minLots,
      max_lots: over.maxLots ?? base.maxLots,
      leverage: leverage.length > 0 ? leverage : [1],
      fee_rate: over.feeRate ?? base.feeRate,
      overnight_rate: over.overnightRate ?? base.overnightRate,
      maintenance_rate: over.maintenanceRate ?? base.maintenanceRate,
      display_decimals: i.displayDecimals,
      // A delivery contract past its expiry takes no new orders.
      open:
        isMarketOpen(i.tradingHours, now) &&
        over.enabled !== false &&
        (!expiresAt || new Date(expiresAt).getTime() > now.getTime()),
      tradingHours: i.tradingHours,
    });
  }
  return out;
}

/** The product of one instrument, or CONTRACT_NOT_AVAILABLE. */
export async function getContractProduct(
  db: DbOrTx,
  symbol: string,
  now = new Date(),
): Promise<ContractProduct> {
  const product = (await listContractProducts(db, now)).find((p) => p.symbol === symbol);
  if (!product) {
    throw new AppError("CONTRACT_NOT_AVAILABLE", {}, "symbol");
  }
  return product;
}

/** Drops the trading hours for the wire. */
export const toProductView = ({ tradingHours: _, ...p }: ContractProduct): TContractProduct => p;
