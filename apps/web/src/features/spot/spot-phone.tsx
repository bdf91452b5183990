import type { TOrderSide } from "@northstar/shared/contracts/spot";
import { Button, Card, Flex, Tabs } from "antd";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { MarketRow } from "../markets/market-data.ts";
import { RecentTrades } from "../markets/order-book.tsx";
import { TradeOrdersPanel } from "./lazy-trade-orders-panel.tsx";

/** The phone's trade screen under the chart: order book, recent trades and my orders, one at a time. */
export function PhoneTabs({
  book,
  instrument,
  hasSpot,
}: {
  book: ReactNode;
  instrument: MarketRow;
  hasSpot: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Card size="small" className="ns-phone-tabs" styles={{ body: { paddingTop: 0 } }}>
      <Tabs
        size="small"
        data-testid="spot-phone-tabs"
        items={[
          {
            key: "book",
            label: <span data-testid="phone-tab-book">{t("market.book.title")}</span>,
            children: book,
          },
          {
            key: "trades",
            label: <span data-testid="phone-tab-trades">{t("market.trades.title")}</span>,
            children: <RecentTrades instrument={instrument} />,
          },
          ...(hasSpot
            ? [
                {
                  key: "orders",
                  label: <span data-testid="phone-tab-orders">{t("spot.orders.current")}</span>,
                  children: <TradeOrdersPanel symbol={instrument.symbol} />,
                },
              ]
            : []),
        ]}
      />
    </Card>
  );
}

/** Buy and Sell, stuck to the bottom of the screen above the tab bar; each opens the order form. */
export function PhoneTradeBar({
  onOpen,
  disabled,
}: {
  onOpen: (side: TOrderSide) => void;
  disabled: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Flex gap={8} className="ns-phone-trade-bar" data-testid="spot-phone-actions">
      {(["buy", "sell"] as const).map((side) => (
        <Button
          key={side}
          block
          size="large"
          color={side === "buy" ? "green" : "danger"}
          variant="solid"
          disabled={disabled}
          onClick={() => onOpen(side)}
          style={{ fontWeight: 600 }}
          data-testid={`spot-phone-${side}`}
        >
          {t(`spot.form.${side}`)}
        </Button>
      ))}
    </Flex>
  );
}
