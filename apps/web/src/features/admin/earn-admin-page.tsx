import { Tabs } from "antd";
import { useTranslation } from "react-i18next";
import { AdminPage } from "./admin-page.tsx";
import { EarnOrdersAdmin } from "./earn-orders-admin.tsx";
import { EarnProductsAdmin } from "./earn-products-admin.tsx";
import { EarnRatesAdmin, EarnYieldAdmin } from "./earn-rates-admin.tsx";

/**
 * Managed earning in the back office: products (create, on or off sale), orders, the early
 * redemption queue (approve or reject), the daily rate schedule of range products (published ahead,
 * never changed) and the yield paid per day. Every change is audited by the server.
 */
export function EarnAdminPage() {
  const { t } = useTranslation();
  return (
    <AdminPage title={t("earn.admin.title")}>
      <Tabs
        destroyOnHidden
        items={[
          { key: "products", label: t("earn.admin.products"), children: <EarnProductsAdmin /> },
          { key: "queue", label: t("earn.admin.queue"), children: <EarnOrdersAdmin queue /> },
          { key: "orders", label: t("earn.admin.orders"), children: <EarnOrdersAdmin /> },
          { key: "rates", label: t("earn.admin.rates"), children: <EarnRatesAdmin /> },
          { key: "yield", label: t("earn.admin.yield"), children: <EarnYieldAdmin /> },
        ]}
      />
    </AdminPage>
  );
}
