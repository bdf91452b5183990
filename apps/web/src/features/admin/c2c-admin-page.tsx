import { Tabs } from "antd";
import { useTranslation } from "react-i18next";
import { AdminPage } from "./admin-page.tsx";
import { C2cMerchantsAdmin } from "./c2c-merchants-admin.tsx";
import { C2cOrdersAdmin } from "./c2c-orders-admin.tsx";
import { C2cRulesAdmin } from "./c2c-rules-admin.tsx";

/**
 * C2C in the back office: orders awaiting confirmation with their payment proof (confirm or reject
 * with a reason), every order, the merchants with their escrowed stock, and the rules page. The
 * server audits every change.
 */
export function C2cAdminPage() {
  const { t } = useTranslation();
  return (
    <AdminPage title={t("c2c.admin.title")}>
      <Tabs
        destroyOnHidden
        items={[
          { key: "queue", label: t("c2c.admin.queue"), children: <C2cOrdersAdmin status="paid" /> },
          { key: "orders", label: t("c2c.admin.orders"), children: <C2cOrdersAdmin /> },
          { key: "merchants", label: t("c2c.admin.merchants"), children: <C2cMerchantsAdmin /> },
          { key: "rules", label: t("c2c.rules"), children: <C2cRulesAdmin /> },
        ]}
      />
    </AdminPage>
  );
}
