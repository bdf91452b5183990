import { LineChartOutlined, RightOutlined } from "@ant-design/icons";
import { Flex, Skeleton, theme } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { currentTickers, useTickersReady } from "../../lib/market-socket.ts";
import { AppLink } from "../../lib/navigation.tsx";
import { createStoredValue, useStoredValue } from "../../lib/store.ts";
import { EmptyState, ErrorState } from "../common/page-states.tsx";
import { Panel } from "../common/panel.tsx";
import { TabBar } from "../common/tab-bar.tsx";
import { topGainers, useMarketList } from "../markets/market-data.ts";
import { LiveIndicator } from "../markets/market-status-tags.tsx";
import { MarketTable } from "../markets/market-table.tsx";
import "./home.css";

type HomeTab = "mainstream" | "gainers";
const tabStore = createStoredValue<HomeTab>("home.marketTab", "mainstream", (v): v is HomeTab =>
  ["mainstream", "gainers"].includes(v),
);

/** How many rows each home tab shows. */
const ROWS = 8;
/** The gainers ranking is recomputed this often; prices in the rows stay live in between. */
const RERANK_MS = 30_000;
/** Candidates asked for: the biggest movers across the catalogue, of which the crypto ones are kept. */
const CANDIDATES = 100;

/** The home page's market table: mainstream coins and the 24h gainers, with live prices. */
export function HomeMarkets() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const tab = useStoredValue(tabStore);
  return (
    <Panel
      title={
        <Flex align="center" gap={8}>
          <LineChartOutlined style={{ color: token.colorPrimary }} />
          {t("nav.market")}
          <LiveIndicator />
        </Flex>
      }
      extra={
        <AppLink to="/market">
          <Flex align="center" gap={4} style={{ whiteSpace: "nowrap" }}>
            {t("market.home.allMarkets")}
            <RightOutlined style={{ fontSize: 10 }} />
          </Flex>
        </AppLink>
      }
      style={{ height: "100%" }}
      bodyStyle={{ paddingTop: 0 }}
      testId="home-markets"
    >
      <TabBar
        tabs={(["mainstream", "gainers"] as const).map((key) => ({
          key,
          label: t(`market.home.${key}`),
          testId: `home-markets-tab-${key}`,
        }))}
        active={tab}
        onChange={(key) => tabStore.set(key)}
      />
      {tab === "mainstream" ? <Mainstream /> : <Gainers />}
    </Panel>
  );
}

/** The first crypto pairs of the spot catalogue, in the operators' order (BTC, ETH, BNB, SOL, …). */
function Mainstream() {
  const { t } = useTranslation();
  const list = useMarketList({ tab: "exchange", category: "crypto", page: 1, pageSize: ROWS });
  if (list.isPending) {
    return <Skeleton active paragraph={{ rows: 7 }} />;
  }
  if (list.isError) {
    return <ErrorState onRetry={() => void list.refetch()} />;
  }
  return (
    <MarketTable
      rows={list.data.items}
      testId="home-market-table"
      empty={<EmptyState>{t("market.noMarkets")}</EmptyState>}
    />
  );
}

/**
 * Crypto pairs ranked by 24h change. The ranking takes the biggest movers from the live tickers
 * (which hold every instrument), asks the catalogue which of them are spot crypto pairs, and keeps the
 * top rows: one small request, whatever the size of the catalogue.
 */
function Gainers() {
  const { t } = useTranslation();
  const ready = useTickersReady();
  const [ranked, setRanked] = useState<string[] | null>(null);
  const [waited, setWaited] = useState(false);

  useEffect(() => {
    const timer = setTimeout(() => setWaited(true), 5_000);
    return () => clearTimeout(timer);
  }, []);

  useEffect(() => {
    if (!ready) {
      return;
    }
    const rank = () => setRanked(topGainers(currentTickers().values(), CANDIDATES));
    rank();
    const timer = setInterval(rank, RERANK_MS);
    return () => clearInterval(timer);
  }, [ready]);

  const list = useMarketList(
    { tab: "exchange", category: "crypto", symbols: ranked ?? [], page: 1, pageSize: CANDIDATES },
    { enabled: (ranked?.length ?? 0) > 0 },
  );

  const noPrices = <EmptyState>{t("market.home.noGainers")}</EmptyState>;
  if (ranked === null) {
    return waited ? noPrices : <Skeleton active paragraph={{ rows: 7 }} />;
  }
  if (ranked.length === 0) {
    return noPrices;
  }
  if (list.isPending) {
    return <Skeleton active paragraph={{ rows: 7 }} />;
  }
  if (list.isError) {
    return <ErrorState onRetry={() => void list.refetch()} />;
  }
  const order = new Map(ranked.map((s, i) => [s, i]));
  const rows = [...list.data.items]
    .sort((a, b) => (order.get(a.symbol) ?? 0) - (order.get(b.symbol) ?? 0))
    .slice(0, ROWS);
  return <MarketTable rows={rows} testId="home-gainers-table" empty={noPrices} />;
}
