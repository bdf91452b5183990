import { RightOutlined } from "@ant-design/icons";
import { Button, Card, Tabs } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useAppNavigate } from "../../lib/navigation.tsx";
import { useIsLoggedIn } from "../../lib/session.ts";
import { LoginPrompt } from "../common/login-prompt.tsx";
import { type OrderScope, useSpotOrders } from "./spot-data.ts";
import { OrderList } from "./spot-orders.tsx";

/** Under the form: the user's current orders and order history in this market, in two tabs. */
export function TradeOrdersPanel({ symbol }: { symbol: string }) {
  const { t } = useTranslation();
  const go = useAppNavigate();
  const loggedIn = useIsLoggedIn();
  const [tab, setTab] = useState<OrderScope>("open");
  const [pages, setPages] = useState<Record<OrderScope, number>>({ open: 1, history: 1 });
  const open = useSpotOrders({ scope: "open", symbol, page: 1 });
  const count = open.data?.total;

  const list = (scope: OrderScope) =>
    loggedIn ? (
      <OrderList
        scope={scope}
        symbol={symbol}
        page={pages[scope]}
        onPage={(page) => setPages((p) => ({ ...p, [scope]: page }))}
        showPair={false}
        emptyText={scope === "open" ? t("spot.orders.emptyOpen") : t("spot.orders.emptyHistory")}
      />
    ) : (
      <LoginPrompt />
    );

  return (
    <Card size="small" styles={{ body: { paddingTop: 0 } }} data-testid="trade-orders">
      <Tabs
        activeKey={tab}
        onChange={(key) => setTab(key as OrderScope)}
        tabBarExtraContent={
          loggedIn && (
            <Button type="link" size="small" onClick={() => go("/currencyRecord")} data-testid="all-orders">
              {t("spot.trade.allOrders")} <RightOutlined />
            </Button>
          )
        }
        items={[
          {
            key: "open",
            label: (
              <span data-testid="orders-tab-open">
                {count ? t("spot.orders.currentCount", { count }) : t("spot.orders.current")}
              </span>
            ),
            children: list("open"),
          },
          {
            key: "history",
            label: <span data-testid="orders-tab-history">{t("spot.orders.history")}</span>,
            children: list("history"),
          },
        ]}
      />
    </Card>
  );
}
