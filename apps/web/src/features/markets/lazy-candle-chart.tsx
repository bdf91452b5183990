import { Skeleton } from "antd";
import { lazyComponent } from "../../lib/lazy-component.tsx";

/**
 * The candlestick chart. The chart library is about a third of the trade page's script: it loads
 * after the page has painted its price, book and form; a placeholder of the same height holds its place.
 */
export const CandleChart = lazyComponent(
  () => import("./candle-chart.tsx").then((m) => m.CandleChart),
  <div style={{ height: "calc(clamp(300px, 52vh, 460px) + 32px)" }} data-testid="candle-chart-loading">
    <Skeleton active paragraph={{ rows: 6 }} />
  </div>,
);
