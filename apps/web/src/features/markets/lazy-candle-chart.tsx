import { Skeleton } from "antd";
import { lazy, Suspense } from "react";
import type { MarketRow } from "./market-data.ts";

// The chart library is about a third of the trade page's script: it loads after the page has
// painted its price, book and form, so the first load stays small.
const Chart = lazy(() => import("./candle-chart.tsx").then((m) => ({ default: m.CandleChart })));

/** The candlestick chart, fetched on first use; a placeholder of the same height holds its place. */
export function CandleChart({ instrument }: { instrument: MarketRow }) {
  return (
    <Suspense
      fallback={
        <div style={{ height: "calc(clamp(300px, 52vh, 460px) + 32px)" }} data-testid="candle-chart-loading">
          <Skeleton active paragraph={{ rows: 6 }} />
        </div>
      }
    >
      <Chart instrument={instrument} />
    </Suspense>
  );
}
