import type { TOrderSide } from "@northstar/shared/contracts/spot";
import { Button, Flex } from "antd";
import { type ReactNode, useState } from "react";
import { useTranslation } from "react-i18next";
import { Panel } from "../common/panel.tsx";
import { TabBar } from "../common/tab-bar.tsx";
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
  const [tab, setTab] = useState<PhoneTab>("book");
  const tabs: { key: PhoneTab; label: ReactNode; testId: string }[] = [
    { key: "book", label: t("market.book.title"), testId: "phone-tab-book" },
    { key: "trades", label: t("market.trades.title"), testId: "phone-tab-trades" },
    ...(hasSpot
      ? [{ key: "orders" as const, label: t("spot.orders.current"), testId: "phone-tab-orders" }]
      : []),
  ];
  return (
    <Panel size="small" className="ns-phone-tabs" bodyStyle={{ paddingTop: 0 }}>
      <TabBar size="small" tabs={tabs} active={tab} onChange={setTab} testId="spot-phone-tabs" />
      {tab === "book" && book}
      {tab === "trades" && <RecentTrades instrument={instrument} />}
      {tab === "orders" && hasSpot && <TradeOrdersPanel symbol={instrument.symbol} />}
    </Panel>
  );
}

type PhoneTab = "book" | "trades" | "orders";

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
