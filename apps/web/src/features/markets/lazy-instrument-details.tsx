import { lazyComponent } from "../../lib/lazy-component.tsx";

/**
 * The instrument's terms (tick, lot, minimum, kinds, hours): they sit at the bottom of the trade
 * screen and draw antd's Descriptions, so they load after the screen has painted.
 */
export const InstrumentDetails = lazyComponent(() =>
  import("./instrument-details.tsx").then((m) => m.InstrumentDetails),
);
