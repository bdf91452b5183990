import { ArrowLeftOutlined } from "@ant-design/icons";
import { leverageOffered, liveKinds, type TradingHours } from "@northstar/shared/markets";
import { Alert, Button, Card, Col, Descriptions, Flex, Grid, Row, Tag, Typography, theme } from "antd";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { useTicker, useTickerValue } from "../../lib/market-socket.ts";
import { AppLink, useAppNavigate } from "../../lib/navigation.tsx";
import { CurrencyMark } from "../assets/currency-mark.tsx";
import { ErrorState, LoadingState } from "../common/page-states.tsx";
import { StatusMessage } from "../common/status-message.tsx";
import { FavouriteStar } from "./favourite-star.tsx";
import { CandleChart } from "./lazy-candle-chart.tsx";
import { ChangeText, LivePrice } from "./live-figures.tsx";
import { type MarketRow, pairName, useInstrument } from "./market-data.ts";
import { useMarketFormat } from "./market-format.ts";
import { ClosedTag, LiveIndicator } from "./market-status-tags.tsx";
import { OrderBook, RecentTrades } from "./order-book.tsx";

export const DEFAULT_SYMBOL = "BTCUSDT";

/** The `?symbol=` of the address, upper-cased; BTCUSDT when there is none. */
export function useSymbolParam(): string {
  const [params] = useSearchParams();
  return (params.get("symbol") ?? "").trim().toUpperCase() || DEFAULT_SYMBOL;
}

/**
 * /currency?symbol=BTCUSDT: one instrument with its live price and 24h statistics, the candlestick
 * chart, the order book and the latest trades. Without a symbol it shows BTCUSDT.
 */
export function InstrumentPage() {
  const symbol = useSymbolParam();
  return (
    <InstrumentLoader symbol={symbol}>
      {(instrument) => <InstrumentView instrument={instrument} />}
    </InstrumentLoader>
  );
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
  children: (instrument: MarketRow) => ReactNode;
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

function InstrumentView({ instrument }: { instrument: MarketRow }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const open = useTickerValue(instrument.symbol, instrument.ticker, (t) => t.x) ?? instrument.open;
  return (
    <Flex vertical gap={token.marginSM}>
      <InstrumentHeader instrument={instrument} />
      {!open && (
        <Alert type="warning" showIcon title={t("market.closedNote")} data-testid="instrument-closed" />
      )}
      <Row gutter={[token.marginSM, token.marginSM]}>
        <Col xs={24} lg={16}>
          <Flex vertical gap={token.marginSM}>
            <Card size="small" title={t("market.chart.title")} styles={{ body: { padding: 8 } }}>
              <CandleChart instrument={instrument} />
            </Card>
            <InstrumentDetails instrument={instrument} />
          </Flex>
        </Col>
        <Col xs={24} lg={8}>
          <Flex vertical gap={token.marginSM}>
            <OrderBook instrument={instrument} />
            <RecentTrades instrument={instrument} />
          </Flex>
        </Col>
      </Row>
    </Flex>
  );
}

/**
 * Symbol, name, live price, and the 24h statistics. `title` replaces the pair's name (the trading
 * screen puts its market picker there).
 */
export function InstrumentHeader({ instrument, title }: { instrument: MarketRow; title?: ReactNode }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const screens = Grid.useBreakpoint();
  const go = useAppNavigate();
  const format = useMarketFormat();
  const ticker = useTicker(instrument.symbol, instrument.ticker);
  const open = ticker ? ticker.x : instrument.open;
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
    <Card size={screens.md ? undefined : "small"} data-testid="instrument-header">
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
                <Typography.Title level={4} style={{ margin: 0 }} data-testid="instrument-symbol">
                  {pairName(instrument)}
                </Typography.Title>
              )}
              <FavouriteStar symbol={instrument.symbol} size="middle" />
              <Tag style={{ marginInlineEnd: 0 }}>{t(`market.categories.${instrument.category}`)}</Tag>
              {!open && <ClosedTag />}
            </Flex>
            <Typography.Text type="secondary" ellipsis>
              {instrument.name}
            </Typography.Text>
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
          <LiveIndicator />
        </Flex>
      </Flex>
      <div style={{ marginTop: token.marginMD }}>
        <Typography.Text type="secondary" style={{ fontSize: token.fontSizeSM }}>
          {t("market.instrument.stats")}
        </Typography.Text>
        <Row gutter={[16, 8]} style={{ marginTop: 6 }} data-testid="instrument-stats">
          {stats.map((s) => (
            <Col key={s.key} xs={12} sm={8} md={8} lg={4} xl={4}>
              <Flex vertical gap={2}>
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {s.label}
                </Typography.Text>
                <span
                  style={{ fontVariantNumeric: "tabular-nums", fontWeight: 500 }}
                  data-testid={`stat-${s.key}`}
                >
                  {s.value}
                </span>
              </Flex>
            </Col>
          ))}
        </Row>
        {!ticker && (
          <Typography.Paragraph type="secondary" style={{ margin: "8px 0 0", fontSize: 12 }}>
            {t("market.instrument.noTicker")}
          </Typography.Paragraph>
        )}
      </div>
    </Card>
  );
}

/** Tick and lot size, leverage (when offered), the trading types offered today, and hours. */
export function InstrumentDetails({ instrument }: { instrument: MarketRow }) {
  const { t } = useTranslation();
  const screens = Grid.useBreakpoint();
  return (
    <Card size="small" title={t("market.instrument.info")} data-testid="instrument-details">
      <Descriptions
        size="small"
        column={screens.md ? 2 : 1}
        items={[
          { key: "tick", label: t("market.instrument.tickSize"), children: instrument.tickSize },
          { key: "lot", label: t("market.instrument.lotSize"), children: instrument.lotSize },
          { key: "min", label: t("market.instrument.minQty"), children: instrument.minQty },
          // Leverage and contract terms only once a leveraged product exists.
          ...(leverageOffered()
            ? [
                {
                  key: "leverage",
                  label: t("market.instrument.maxLeverage"),
                  children: t("market.instrument.leverageValue", { n: instrument.maxLeverage }),
                },
              ]
            : []),
          {
            key: "kinds",
            label: t("market.instrument.kinds"),
            children: (
              <Flex gap={4} wrap data-testid="instrument-kinds">
                {liveKinds(instrument.kinds).map((k) => (
                  <Tag key={k} style={{ marginInlineEnd: 0 }}>
                    {t(`market.instrument.kind.${k}`)}
                  </Tag>
                ))}
              </Flex>
            ),
          },
          {
            key: "hours",
            label: t("market.instrument.tradingHours"),
            children: <Hours hours={instrument.tradingHours} />,
          },
        ]}
      />
    </Card>
  );
}

/** Weekly sessions in the venue's time zone: "Mon–Fri 09:30–16:00 · Time zone: America/New_York". */
function Hours({ hours }: { hours: TradingHours }) {
  const { t } = useTranslation();
  const format = useMarketFormat();
  if (hours.sessions.length === 0) {
    return <span>{t("market.instrument.alwaysOpen")}</span>;
  }
  const days = (list: number[]) => {
    const sorted = [...list].sort((a, b) => a - b);
    const first = sorted[0] ?? 0;
    const last = sorted[sorted.length - 1] ?? 0;
    const consecutive = sorted.length > 2 && last - first === sorted.length - 1;
    return consecutive
      ? `${format.weekday(first)}–${format.weekday(last)}`
      : sorted.map((d) => format.weekday(d)).join(", ");
  };
  return (
    <Flex vertical gap={2}>
      {hours.sessions.map((s) => (
        <span key={`${s.days.join()}-${s.open}-${s.close}`}>
          {t("market.instrument.session", { days: days(s.days), open: s.open, close: s.close })}
        </span>
      ))}
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {t("market.instrument.timeZone", { zone: hours.timeZone })}
      </Typography.Text>
    </Flex>
  );
}
