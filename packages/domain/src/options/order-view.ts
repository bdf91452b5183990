import type { TOptionOrderView } from "@northstar/shared/contracts/options";
import { MoneyDecimal } from "@northstar/shared/money";
import { type SourceRow, toPriceSource } from "../markets/index.ts";
import type { OptionOrderRow } from "./options.table.ts";

const plain = (v: string) => new MoneyDecimal(v).toFixed();
const plainOrNull = (v: string | null) => (v === null ? null : plain(v));
const iso = (d: Date | null) => (d === null ? null : d.toISOString());

export function toOptionView(row: OptionOrderRow, settlementTick: SourceRow | null = null): TOptionOrderView {
  return {
    id: row.id,
    symbol: row.symbol,
    direction: row.direction,
    status: row.status,
    period_seconds: row.periodSeconds,
    amount: plain(row.amount),
    fee: plain(row.fee),
    fee_rate: plain(row.feeRate),
    payout_rate: plain(row.payoutRate),
    purchase_price: plain(row.purchasePrice),
    purchase_tick_time: row.purchaseTickTime.toISOString(),
    purchased_at: row.purchasedAt.toISOString(),
    expires_at: row.expiresAt.toISOString(),
    settlement_tick_id: row.settlementTickId,
    settlement_price: plainOrNull(row.settlementPrice),
    settlement_tick_time: iso(row.settlementTickTime),
    settlement_source: toPriceSource(settlementTick),
    settled_at: iso(row.settledAt),
    payout: plainOrNull(row.payout),
    profit: plainOrNull(row.profit),
  };
}
