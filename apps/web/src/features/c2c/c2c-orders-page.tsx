import { Button } from "antd";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { useAppNavigate } from "../../lib/navigation.tsx";
import { Page } from "../common/page.tsx";
import { OrderDetail } from "./order-detail.tsx";
import { OrderList } from "./order-list.tsx";

/** /c2c_order: my orders, or one order with `?id=<order>` (payee, countdown, outcome). */
export function C2cOrdersPage() {
  const { t } = useTranslation();
  const go = useAppNavigate();
  const [params] = useSearchParams();
  const id = Number(params.get("id") ?? 0);
  const valid = Number.isInteger(id) && id > 0;
  return (
    <Page
      title={valid ? t("c2c.order") : t("c2c.myOrders")}
      width={640}
      extra={
        !valid && (
          <Button type="primary" onClick={() => go("/c2c_index")}>
            {t("c2c.buy")}
          </Button>
        )
      }
    >
      {valid ? <OrderDetail key={id} orderId={id} /> : <OrderList />}
    </Page>
  );
}
