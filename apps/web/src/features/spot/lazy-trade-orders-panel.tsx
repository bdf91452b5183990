import { Skeleton } from "antd";
import { lazyComponent } from "../../lib/lazy-component.tsx";

/**
 * The user's open orders, order history and fills for a market. The panel sits below the form and
 * book and draws antd's table: it loads after the trade screen has painted.
 */
export const TradeOrdersPanel = lazyComponent(
  () => import("./trade-orders-panel.tsx").then((m) => m.TradeOrdersPanel),
  <Skeleton active paragraph={{ rows: 4 }} data-testid="trade-orders-loading" />,
);
