import type { SpotOrderRow } from "@northstar/domain/spot";
import type { TSpotOrderView } from "@northstar/shared/contracts/spot";
import { MoneyDecimal } from "@northstar/shared/money";

/** A catalogue symbol in Binance's form: letters and digits only (BTCUSDT stays BTCUSDT). */
export const binanceSymbol = (symbol: string) => symbol.replace(/[^A-Za-z0-9]/g, "").toUpperCase();

/** Binance's name of an order's state. */
export function binanceStatus(row: Pick<SpotOrderRow, "status" | "cancelReason">): string {
  switch (row.status) {
    case "pending":
    case "open":
      return "NEW";
    case "partial":
      return "PARTIALLY_FILLED";
    case "filled":
      return "FILLED";
    case "rejected":
      return "REJECTED";
    case "cancelled":
      // What the engine ended without being asked (the rest of an IOC or market order, a LIMIT_MAKER
      // that would have taken) Binance calls EXPIRED; a cancel the user asked for, CANCELED.
      return row.cancelReason === "user" || row.cancelReason === null ? "CANCELED" : "EXPIRED";
    default:
      return "NEW";
  }
}

const plain = (v: string | null | undefined) =>
  v === null || v === undefined ? "0" : new MoneyDecimal(v).toFixed();

/** The client order id Binance shows: the key it was placed with, else one made from our id. */
export const clientOrderIdOf = (row: Pick<SpotOrderRow, "id" | "clientKey">) =>
  row.clientKey ?? `ns-${row.id}`;

/** An order as Binance's GET /api/v3/order answers it. */
export function binanceOrder(row: SpotOrderRow, symbol: string) {
  const type = row.timeInForce === "post_only" ? "LIMIT_MAKER" : row.type === "market" ? "MARKET" : "LIMIT";
  const created = new Date(row.createdAt).getTime();
  return {
    symbol,
    orderId: row.id,
    orderListId: -1,
    clientOrderId: clientOrderIdOf(row),
    // A market order shows price 0, as Binance's do (its protection price is ours alone).
    price: row.type === "market" ? "0" : plain(row.price),
    origQty: plain(row.quantity ?? row.filledQty),
    executedQty: plain(row.filledQty),
    cummulativeQuoteQty: plain(row.filledQuote),
    status: binanceStatus(row),
    timeInForce: row.timeInForce === "ioc" ? "IOC" : "GTC",
    type,
    side: row.side === "buy" ? "BUY" : "SELL",
    stopPrice: "0",
    icebergQty: "0",
    time: created,
    updateTime: new Date(row.updatedAt).getTime(),
    isWorking: row.status === "open" || row.status === "partial",
    workingTime: created,
    origQuoteOrderQty: plain(row.quoteAmount),
    selfTradePreventionMode: "NONE",
  };
}

/** The same answer from the view placing returns (no second read of the row just written). */
export function binanceOrderFromView(view: TSpotOrderView, symbol: string, clientOrderId: string) {
  const created = new Date(view.created_at).getTime();
  return {
    symbol,
    orderId: view.id,
    orderListId: -1,
    clientOrderId,
    price: view.type === "market" ? "0" : plain(view.price),
    origQty: plain(view.quantity ?? view.filled_qty),
    executedQty: plain(view.filled_qty),
    cummulativeQuoteQty: plain(view.filled_quote),
    status: binanceStatus({ status: view.status, cancelReason: view.cancel_reason }),
    timeInForce: view.time_in_force === "ioc" ? "IOC" : "GTC",
    type: view.time_in_force === "post_only" ? "LIMIT_MAKER" : view.type === "market" ? "MARKET" : "LIMIT",
    side: view.side === "buy" ? "BUY" : "SELL",
    stopPrice: "0",
    icebergQty: "0",
    time: created,
    updateTime: new Date(view.updated_at).getTime(),
    isWorking: view.status === "open" || view.status === "partial",
    workingTime: created,
    origQuoteOrderQty: plain(view.quote_amount),
    selfTradePreventionMode: "NONE",
  };
}
