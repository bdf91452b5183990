import { lazyComponent } from "../../lib/lazy-component.tsx";

/** The phone's order sheet (antd's drawer and the form in it), loaded when a user first taps Buy or Sell. */
export const OrderSheet = lazyComponent(() => import("./order-sheet.tsx").then((m) => m.OrderSheet));
