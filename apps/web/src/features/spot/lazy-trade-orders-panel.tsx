import { Skeleton } from "antd";
import { lazy, Suspense } from "react";

// The orders panel sits below the form and book and draws antd's table; it loads after the trade
// screen has painted, which keeps the table out of the page's first load.
const Panel = lazy(() => import("./trade-orders-panel.tsx").then((m) => ({ default: m.TradeOrdersPanel })));

/** The user's open orders, order history and fills for a market, fetched on first use. */
export function TradeOrdersPanel({ symbol }: { symbol: string }) {
  return (
    <Suspense fallback={<Skeleton active paragraph={{ rows: 4 }} data-testid="trade-orders-loading" />}>
      <Panel symbol={symbol} />
    </Suspense>
  );
}
