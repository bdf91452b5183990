import { liquidationPrice } from "@northstar/shared/contract-math";
import type { TContractCloseView, TContractPositionView } from "@northstar/shared/contracts/contracts";
import { MoneyDecimal } from "@northstar/shared/money";
import { type SourceRow, toPriceSource } from "../markets/index.ts";
import type { ContractPositionRow, contractCloses } from "./contracts.table.ts";

const plain = (v: string) => new MoneyDecimal(v).toFixed();
const maybe = (v: string | null) => (v === null ? null : plain(v));
const iso = (v: Date | null) => (v ? v.toISOString() : null);

/** The exact decision inputs of a holding position, for the liquidation rule. */
export function positionTerms(row: ContractPositionRow) {
  return {
    side: row.side,
    entryPrice: row.entryPrice ?? "0",
    lots: row.lots,
    contractSize: row.contractSize,
    margin: row.margin,
    maintenanceRate: row.maintenanceRate,
  };
}

export function toPositionView(
  row: ContractPositionRow,
  closeTick: SourceRow | null = null,
): TContractPositionView {
  return {
    id: row.id,
    symbol: row.symbol,
    side: row.side,
    order_type: row.orderType,
    status: row.status,
    type: row.productType,
    lots: plain(row.lots),
    original_lots: plain(row.originalLots),
    contract_size: plain(row.contractSize),
    leverage: row.leverage,
    limit_price: maybe(row.limitPrice),
    entry_price: maybe(row.entryPrice),
    margin: plain(row.margin),
    initial_margin: plain(row.initialMargin),
    open_fee: plain(row.openFee),
    close_fee: plain(row.closeFee),
    overnight_total: plain(row.overnightTotal),
    realised_pnl: plain(row.realisedPnl),
    take_profit: maybe(row.takeProfit),
    stop_loss: maybe(row.stopLoss),
    liquidation_price:
      row.status === "holding" && row.entryPrice ? liquidationPrice(positionTerms(row)) : null,
    maintenance_rate: plain(row.maintenanceRate),
    fee_rate: plain(row.feeRate),
    overnight_rate: plain(row.overnightRate),
    exit_price: maybe(row.exitPrice),
    close_reason: row.closeReason,
    close_source: toPriceSource(closeTick),
    expires_at: iso(row.expiresAt),
    created_at: row.createdAt.toISOString(),
    opened_at: iso(row.openedAt),
    closed_at: iso(row.closedAt),
  };
}

export function toCloseView(row: typeof contractCloses.$inferSelect): TContractCloseView {
  return {
    id: row.id,
    position_id: row.positionId,
    lots: plain(row.lots),
    price: plain(row.price),
    tick_id: row.tickId,
    reason: row.reason,
    pnl: plain(row.pnl),
    fee: plain(row.fee),
    payout: plain(row.payout),
    shortfall: plain(row.shortfall),
    created_at: row.createdAt.toISOString(),
  };
}
