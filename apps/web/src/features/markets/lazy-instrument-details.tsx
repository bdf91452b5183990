import { lazy, Suspense } from "react";
import type { MarketRow } from "./market-data.ts";

// The terms table sits at the bottom of the trade screen and draws antd's Descriptions: it loads after
// the screen has painted.
const Details = lazy(() =>
  import("./instrument-details.tsx").then((m) => ({ default: m.InstrumentDetails })),
);

/** The instrument's terms (tick, lot, minimum, kinds, hours), fetched on first use. */
export function InstrumentDetails({ instrument }: { instrument: MarketRow }) {
  return (
    <Suspense fallback={null}>
      <Details instrument={instrument} />
    </Suspense>
  );
}
