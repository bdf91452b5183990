import {
  type ContractSide,
  initialMargin,
  liquidationPrice,
  overnightCharge,
  tradeFee,
} from "@northstar/shared/contract-math";
import { MoneyDecimal } from "@northstar/shared/money";

export interface PreTradeFigures {
  margin: string;
  fee: string;
  liquidationPrice: string;
  overnight: string;
  overnightPercent: string;
}

/**
 * What an order would hold and risk at `price`, with the same rules the server enforces (shared
 * contract math): shown before the user confirms. Null while the lots or the price are not a number.
 */
export function preTradeFigures(
  product: { contract_size: string; fee_rate: string; overnight_rate: string; maintenance_rate: string },
  side: ContractSide,
  price: string,
  lots: string,
  leverage: number,
): PreTradeFigures | null {
  if (!/^\d+(\.\d+)?$/.test(lots) || !/^\d+(\.\d+)?$/.test(price)) {
    return null;
  }
  if (new MoneyDecimal(lots).lte(0) || new MoneyDecimal(price).lte(0)) {
    return null;
  }
  const margin = initialMargin(price, lots, product.contract_size, leverage);
  return {
    margin,
    fee: tradeFee(price, lots, product.contract_size, product.fee_rate),
    liquidationPrice: liquidationPrice({
      side,
      entryPrice: price,
      lots,
      contractSize: product.contract_size,
      margin,
      maintenanceRate: product.maintenance_rate,
    }),
    overnight: overnightCharge(price, lots, product.contract_size, product.overnight_rate),
    overnightPercent: new MoneyDecimal(product.overnight_rate).times(100).toFixed(),
  };
}
