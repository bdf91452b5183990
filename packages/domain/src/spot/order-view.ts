import type { TSpotOrderView } from "@northstar/shared/contracts/spot";
import { MoneyDecimal } from "@northstar/shared/money";
import type { spotOrders } from "./spot.table.ts";

export type SpotOrderRow = typeof spotOrders.$inferSelect;

/** Trailing zeros off a NUMERIC string ("1.500000000000000000" → "1.5"). */
const plain = (value: string) => new MoneyDecimal(value).toFixed();
const plainOrNull = (value: string | null) => (value === null ? null : plain(value));

/** What the screens and the socket's `user` channel show of an order. */
export function toOrderView(row: SpotOrderRow): TSpotOrderView {
  const filled = new MoneyDecimal(row.filledQty);
  return {
    id: row.id,
    symbol: row.symbol,
    base: row.base,
    quote: row.quote,
    side: row.side,
    type: row.type,
    time_in_force: row.timeInForce,
    price: plainOrNull(row.price),
    quantity: plainOrNull(row.quantity),
    quote_amount: plainOrNull(row.quoteAmount),
    filled_qty: filled.toFixed(),
    filled_quote: plain(row.filledQuote),
    avg_price: filled.isZero() ? null : new MoneyDecimal(row.filledQuote).div(filled).toFixed(),
    fee: plain(row.fee),
    fee_currency: row.feeCurrency,
    status: row.status,
    cancel_reason: row.cancelReason,
    created_at: new Date(row.createdAt).toISOString(),
    updated_at: new Date(row.updatedAt).toISOString(),
  };
}
