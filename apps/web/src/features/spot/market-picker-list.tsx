import { SearchOutlined } from "@ant-design/icons";
import { Flex, Input, Skeleton, theme } from "antd";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { useLocation } from "react-router";
import { useAppNavigate } from "../../lib/navigation.tsx";
import { EmptyState } from "../common/page-states.tsx";
import { LiveChange, LivePrice } from "../markets/live-figures.tsx";
import { PairLabel } from "../markets/pair-label.tsx";
import { useSpotMarkets } from "./spot-data.ts";

/** The spot markets with live prices and a search; choosing one opens it on the same route (`?symbol=`). */
export function MarketList({ current, onPicked }: { current: string; onPicked: () => void }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const go = useAppNavigate();
  const { pathname } = useLocation();
  const [search, setSearch] = useState("");
  const markets = useSpotMarkets();
  const rows = useMemo(() => {
    const q = search.trim().toUpperCase();
    const all = markets.data?.items ?? [];
    return q ? all.filter((r) => r.symbol.includes(q) || r.name.toUpperCase().includes(q)) : all;
  }, [markets.data, search]);

  const pick = (symbol: string) => {
    onPicked();
    go(`${pathname}?symbol=${encodeURIComponent(symbol)}`);
  };

  return (
    <Flex vertical gap={8} style={{ width: "min(340px, calc(100vw - 48px))" }}>
      <Input
        allowClear
        autoFocus
        prefix={<SearchOutlined />}
        placeholder={t("spot.trade.searchMarket")}
        value={search}
        onChange={(e) => setSearch(e.target.value)}
        data-testid="market-picker-search"
      />
      <div
        role="listbox"
        aria-label={t("spot.trade.spotMarkets")}
        style={{ maxHeight: 360, overflowY: "auto" }}
      >
        {markets.isPending ? (
          <Skeleton active paragraph={{ rows: 5 }} />
        ) : rows.length === 0 ? (
          <EmptyState>{t("spot.trade.noMarkets")}</EmptyState>
        ) : (
          rows.map((row) => (
            <Flex
              key={row.symbol}
              role="option"
              aria-selected={row.symbol === current}
              tabIndex={0}
              justify="space-between"
              align="center"
              gap={12}
              className="ns-picker-row"
              style={{
                background: row.symbol === current ? token.controlItemBgActive : undefined,
              }}
              onClick={() => pick(row.symbol)}
              onKeyDown={(e) => {
                if (e.key === "Enter" || e.key === " ") {
                  e.preventDefault();
                  pick(row.symbol);
                }
              }}
              data-testid={`market-picker-${row.symbol}`}
            >
              <PairLabel row={row} size={24} maxWidth={150} />
              <Flex vertical align="flex-end" gap={0}>
                <LivePrice symbol={row.symbol} decimals={row.displayDecimals} fallback={row.ticker} />
                <span style={{ fontSize: 12 }}>
                  <LiveChange symbol={row.symbol} fallback={row.ticker} />
                </span>
              </Flex>
            </Flex>
          ))
        )}
      </div>
    </Flex>
  );
}
