import { lazy, Suspense } from "react";
import type { OrderSheet as OrderSheetType } from "./order-sheet.tsx";

// The sheet (antd's drawer and the form in it) loads when a phone user first taps Buy or Sell.
const Sheet = lazy(() => import("./order-sheet.tsx").then((m) => ({ default: m.OrderSheet })));

export function OrderSheet(props: Parameters<typeof OrderSheetType>[0]) {
  return (
    <Suspense fallback={null}>
      <Sheet {...props} />
    </Suspense>
  );
}
