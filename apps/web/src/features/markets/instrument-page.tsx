import { ArrowLeftOutlined } from "@ant-design/icons";
import { Button, Flex, Grid, theme } from "antd";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { useTicker } from "../../lib/market-socket.ts";
import { AppLink, useAppNavigate } from "../../lib/navigation.tsx";
import { CurrencyMark } from "../assets/currency-mark.tsx";
import { ErrorState, LoadingState } from "../common/page-states.tsx";
import { Panel } from "../common/panel.tsx";
import { StatusMessage } from "../common/status-message.tsx";
import { Paragraph, Text, Title } from "../common/typography.tsx";
import { FavouriteStar } from "./favourite-star.tsx";
import { ChangeText, LivePrice } from "./live-figures.tsx";
import { type InstrumentRow, pairName, useInstrument } from "./market-data.ts";
import { useMarketFormat } from "./market-format.ts";
import { marketOpenNow } from "./market-status.ts";
import { ClosedTag, LiveIndicator } from "./market-status-tags.tsx";

export const DEFAULT_SYMBOL = "BTCUSDT";

/** The `?symbol=` of the address, upper-cased; BTCUSDT when there is none. */
export function useSymbolParam(): string {
  const [params] = useSearchParams();
  return (params.get("symbol") ?? "").trim().toUpperCase() || DEFAULT_SYMBOL;
}

/**
 * Loads one instrument and renders `children` with it; says so while loading, when the request
 * failed, and when the catalogue has no such symbol. Screens about one instrument share it.
 */
export function InstrumentLoader({
  symbol,
  maxWidth = 1280,
  children,
}: {
  symbol: string;
  maxWidth?: number;
  children: (instrument: InstrumentRow) => ReactNode;
}) {
  const { t } = useTranslation();
  const instrument = useInstrument(symbol);

  let body: ReactNode;
  if (instrument.isPending) {
    body = <LoadingState rows={10} />;
  } else if (instrument.isError) {
    body = <ErrorState onRetry={() => void instrument.refetch()} />;
  } else if (instrument.data === null) {
    body = (
      <StatusMessage
        kind="notFound"
        title={symbol}
        hint={t("market.instrument.notFound")}
        testId="instrument-not-found"
        actions={
          <AppLink to="/market">
            <Button type="primary">{t("market.browseMarkets")}</Button>
          </AppLink>
        }
      />
    );
  } else {
    body = children(instrument.data);
  }
  return (
    <div style={{ maxWidth, margin: "16px auto 24px", padding: "0 12px" }} data-testid="instrument-page">
      {body}
    </div>
  );
}

/**
 * Symbol, name, live price, and the 24h statistics. `title` replaces the pair's name (the trading
 * screen puts its market picker there).
 */
export function InstrumentHeader({ instrument, title }: { instrument: InstrumentRow; title?: ReactNode }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const screens = Grid.useBreakpoint();
  const go = useAppNavigate();
  const format = useMarketFormat();
  const ticker = useTicker(instrument.symbol, instrument.ticker);
  const open = marketOpenNow(ticker, instrument);
  const decimals = instrument.displayDecimals;

  const stats: { key: string; label: string; value: ReactNode }[] = [
    {
      key: "change",
      label: t("market.instrument.change"),
      value: <ChangeText change={ticker?.c} testId="instrument-change" />,
    },
    {
      key: "high",
      label: t("market.instrument.high"),
      value: ticker ? format.price(ticker.h, decimals) : "—",
    },
    {
      key: "low",
      label: t("market.instrument.low"),
      value: ticker ? format.price(ticker.l, decimals) : "—",
    },
    {
      key: "volume",
      label: t("market.instrument.volume", { unit: instrument.base }),
      value: ticker ? format.volume(ticker.v) : "—",
    },
    {
      key: "turnover",
      label: t("market.instrument.turnover", { unit: instrument.quote }),
      value: ticker ? format.volume(ticker.q) : "—",
    },
  ];

  return (
    <Panel size={screens.md ? undefined : "small"} testId="instrument-header">
      <Flex gap={token.marginLG} wrap align="center" justify="space-between">
        <Flex align="center" gap={12} style={{ minWidth: 0 }}>
          <Button
            type="text"
            aria-label={t("common.back")}
            icon={<ArrowLeftOutlined />}
            onClick={() => go("/market")}
          />
          <CurrencyMark code={instrument.base} size={screens.sm ? 40 : 32} />
          <Flex vertical style={{ minWidth: 0 }}>
            <Flex align="center" gap={6} wrap>
              {title ?? (
                <Title level={4} style={{ margin: 0 }}>
                  <span data-testid="instrument-symbol">{pairName(instrument)}</span>
                </Title>
              )}
              <FavouriteStar symbol={instrument.symbol} size="middle" />
              <span className="ns-tag">{t(`market.categories.${instrument.category}`)}</span>
              {!open && <ClosedTag />}
            </Flex>
            <Text type="secondary" ellipsis>
              {instrument.name}
            </Text>
          </Flex>
        </Flex>
        <Flex vertical align={screens.md ? "flex-end" : "flex-start"} gap={2}>
          <LivePrice
            symbol={instrument.symbol}
            decimals={decimals}
            fallback={instrument.ticker}
            colored
            style={{ fontSize: "clamp(24px, 5vw, 32px)", fontWeight: 700, lineHeight: 1.2 }}
            testId="instrument-price"
          />
          {/* A closed market's price is its last one: no green "Live" beside the "Closed" tag. */}
          <LiveIndicator closed={!open} />
        </Flex>
      </Flex>
      <div style={{ marginTop: token.marginMD }}>
        <Text type="secondary" style={{ fontSize: token.fontSizeSM }}>
          {t("market.instrument.stats")}
        </Text>
        <div className="ns-instrument-stats" data-testid="instrument-stats">
          {stats.map((s) => (
            <div key={s.key}>
              <Flex vertical gap={2}>
                <Text type="secondary" style={{ fontSize: 12 }}>
                  {s.label}
                </Text>
                <span
                  style={{ fontVariantNumeric: "tabular-nums", fontWeight: 500 }}
                  data-testid={`stat-${s.key}`}
                >
                  {s.value}
                </span>
              </Flex>
            </div>
          ))}
        </div>
        {!ticker && (
          <Paragraph type="secondary" style={{ margin: "8px 0 0", fontSize: 12 }}>
            {t("market.instrument.noTicker")}
          </Paragraph>
        )}
        <PriceSourceNotes instrument={instrument} />
      </div>
    </Panel>
  );
}

/** Where the prices come from, and why the market takes no orders when its source is paused. */
function PriceSourceNotes({ instrument }: { instrument: InstrumentRow }) {
  const { t } = useTranslation();
  const prices = instrument.prices;
  if (!prices) {
    return null;
  }
  return (
    <>
      {prices.paused && (
        <Paragraph type="warning" style={{ margin: "8px 0 0" }} data-testid="instrument-prices-paused">
          {t("market.instrument.pricesPaused", prices.paused)}
        </Paragraph>
      )}
      {prices.viewOnly && (
        <Paragraph type="warning" style={{ margin: "8px 0 0" }} data-testid="instrument-view-only">
          {t("market.instrument.viewOnly")}
        </Paragraph>
      )}
      {prices.servedBy && (
        <Paragraph
          type="secondary"
          style={{ margin: "8px 0 0", fontSize: 12 }}
          data-testid="instrument-price-source"
        >
          {prices.servedBy === "simulator" || prices.servedBy.startsWith("replay")
            ? t("market.instrument.priceSourceSimulated")
            : t("market.instrument.priceSource", {
                source: prices.servedBy,
                symbol: prices.sourceSymbol ?? instrument.symbol,
              })}
        </Paragraph>
      )}
    </>
  );
}
