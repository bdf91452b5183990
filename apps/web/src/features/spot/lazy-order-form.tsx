import { Skeleton } from "antd";
import { useTranslation } from "react-i18next";
import { lazyComponent } from "../../lib/lazy-component.tsx";
import { Panel } from "../common/panel.tsx";

/**
 * The buy/sell form. It draws antd's form, inputs and slider and checks amounts with the shared
 * schema: it loads while the price, book and chart paint, and a placeholder of its size holds its place.
 */
export const OrderForm = lazyComponent(
  () => import("./order-form.tsx").then((m) => m.OrderForm),
  <OrderFormLoading />,
);

/** The form's frame while its code or the market's terms load. */
export function OrderFormLoading() {
  const { t } = useTranslation();
  return (
    <Panel size="small" title={t("spot.form.title")} testId="order-form-loading">
      <Skeleton active paragraph={{ rows: 9 }} />
    </Panel>
  );
}
