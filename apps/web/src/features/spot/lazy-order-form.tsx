import { Skeleton } from "antd";
import { lazy, Suspense } from "react";
import { useTranslation } from "react-i18next";
import { Panel } from "../common/panel.tsx";
import type { OrderForm as OrderFormType } from "./order-form.tsx";

// The order form draws antd's form, inputs and slider and checks amounts with the shared schema:
// it loads while the price, book and chart paint, which keeps it out of the trade page's first load.
const Form = lazy(() => import("./order-form.tsx").then((m) => ({ default: m.OrderForm })));

/** The buy/sell form, fetched on first use; a placeholder of its size holds its place. */
export function OrderForm(props: Parameters<typeof OrderFormType>[0]) {
  return (
    <Suspense fallback={<OrderFormLoading />}>
      <Form {...props} />
    </Suspense>
  );
}

/** The form's frame while its code or the market's terms load. */
export function OrderFormLoading() {
  const { t } = useTranslation();
  return (
    <Panel size="small" title={t("spot.form.title")} testId="order-form-loading">
      <Skeleton active paragraph={{ rows: 9 }} />
    </Panel>
  );
}
