import { MoneyDecimal } from "@northstar/shared/money";
import { Flex, Skeleton, theme } from "antd";
import { useTranslation } from "react-i18next";
import { TRADES_KEPT, useDepth, useTrades } from "../../lib/market-socket.ts";
import { EmptyState } from "../common/page-states.tsx";
import { Panel } from "../common/panel.tsx";
import { Text } from "../common/typography.tsx";
import { LivePrice } from "./live-figures.tsx";
import type { MarketRow } from "./market-data.ts";
import { quantityDecimals, useMarketFormat } from "./market-format.ts";

/** Levels shown on each side of the book. */
const LEVELS = 10;

/** A price as a canonical decimal ("65000.10" → "65000.1"), to match levels against order prices. */
export const levelKey = (price: string) => new MoneyDecimal(price).toFixed();

/**
 * The order book from the socket (full state on every update): asks above, best ask nearest the
 * middle; the last price and the spread; bids below, best first. A bar behind each level shows its
 * quantity against the largest level shown. With `onPick`, a level is a button that hands its price
 * to the order form; `mine` marks the levels (by levelKey) where the user has orders resting.
 */
export function OrderBook({
  instrument,
  onPick,
  mine,
}: {
  instrument: MarketRow;
  onPick?: (price: string) => void;
  mine?: ReadonlySet<string>;
}) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const format = useMarketFormat();
  const { depth, ready } = useDepth(instrument.symbol);
  const qtyDecimals = quantityDecimals(instrument.lotSize);
  const asks = (depth?.asks ?? []).slice(0, LEVELS);
  const bids = (depth?.bids ?? []).slice(0, LEVELS);
  // Bar widths are drawing, not money: a float ratio is fine here.
  const largest = Math.max(0, ...[...asks, ...bids].map(([, qty]) => Number(qty)));
  const width = (qty: string) => (largest > 0 ? `${Math.min(100, (Number(qty) / largest) * 100)}%` : "0%");
  const bestAsk = asks[0]?.[0];
  const bestBid = bids[0]?.[0];
  const spread =
    bestAsk && bestBid
      ? format.price(new MoneyDecimal(bestAsk).minus(bestBid).toFixed(), instrument.displayDecimals)
      : null;

  const row = (side: "ask" | "bid", [price, qty]: [string, string]) => {
    const own = mine?.has(levelKey(price)) ?? false;
    const text = format.price(price, instrument.displayDecimals);
    return (
      <div
        className={onPick ? "ns-book-row ns-book-row-pick" : "ns-book-row"}
        key={`${side}-${price}`}
        data-testid={`book-${side}`}
        data-price={levelKey(price)}
        data-mine={own || undefined}
        {...(onPick && {
          role: "button",
          tabIndex: 0,
          title: t("spot.book.pick", { price: text }),
          onClick: () => onPick(price),
          onKeyDown: (e: React.KeyboardEvent) => {
            if (e.key === "Enter" || e.key === " ") {
              e.preventDefault();
              onPick(price);
            }
          },
        })}
      >
        <div
          className="ns-book-bar"
          style={{
            width: width(qty),
            background: side === "ask" ? token.colorErrorBg : token.colorSuccessBg,
          }}
        />
        <span style={{ color: side === "ask" ? token.colorError : token.colorSuccess }}>
          {own && (
            <span
              className="ns-book-mine"
              role="img"
              style={{ background: token.colorWarning }}
              aria-label={t("spot.book.mine")}
            />
          )}
          {text}
        </span>
        <span style={{ textAlign: "end" }} data-testid="book-qty">
          {format.quantity(qty, qtyDecimals)}
        </span>
      </div>
    );
  };

  let body: React.ReactNode;
  if (!ready) {
    body = <Skeleton active paragraph={{ rows: 8 }} style={{ padding: 8 }} />;
  } else if (asks.length === 0 && bids.length === 0) {
    body = (
      <div style={{ paddingBlock: 24 }} data-testid="order-book-empty">
        <EmptyState>{t("market.book.empty")}</EmptyState>
      </div>
    );
  } else {
    body = (
      <Flex vertical>
        <Flex vertical justify="flex-end" style={{ minHeight: LEVELS * 22 }}>
          {[...asks].reverse().map((level) => row("ask", level))}
        </Flex>
        <Flex
          align="baseline"
          justify="space-between"
          gap={8}
          style={{
            padding: "6px 8px",
            marginBlock: 4,
            borderBlock: `1px solid ${token.colorSplit}`,
          }}
        >
          <LivePrice
            symbol={instrument.symbol}
            decimals={instrument.displayDecimals}
            fallback={instrument.ticker}
            colored
            style={{ fontSize: 18, fontWeight: 600 }}
          />
          {spread && (
            <Text type="secondary" style={{ fontSize: 12, fontVariantNumeric: "tabular-nums" }}>
              {t("market.book.spread")} {spread}
            </Text>
          )}
        </Flex>
        <Flex vertical style={{ minHeight: LEVELS * 22 }}>
          {bids.map((level) => row("bid", level))}
        </Flex>
      </Flex>
    );
  }

  return (
    <Panel
      size="small"
      title={t("market.book.title")}
      bodyStyle={{ padding: "4px 0 8px" }}
      testId="order-book"
    >
      <div className="ns-book-row" style={{ color: token.colorTextTertiary, fontSize: 12 }}>
        <span>{t("market.book.price", { unit: instrument.quote })}</span>
        <span style={{ textAlign: "end" }}>{t("market.book.amount", { unit: instrument.base })}</span>
      </div>
      {body}
    </Panel>
  );
}

/** The latest trades from the socket, newest first, coloured by the taker's side. */
export function RecentTrades({ instrument }: { instrument: MarketRow }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const format = useMarketFormat();
  const { trades, ready } = useTrades(instrument.symbol);
  const qtyDecimals = quantityDecimals(instrument.lotSize);

  let body: React.ReactNode;
  if (!ready) {
    body = <Skeleton active paragraph={{ rows: 6 }} style={{ padding: 8 }} />;
  } else if (trades.length === 0) {
    body = (
      <div style={{ paddingBlock: 24 }} data-testid="recent-trades-empty">
        <EmptyState>{t("market.trades.empty")}</EmptyState>
      </div>
    );
  } else {
    body = (
      <div style={{ maxHeight: 22 * 12, overflowY: "auto" }} data-testid="recent-trades-list">
        {trades.slice(0, TRADES_KEPT).map((trade) => (
          <div
            key={trade.id}
            className="ns-book-row"
            style={{ gridTemplateColumns: "1fr 1fr 1fr" }}
            data-testid="trade-row"
          >
            <span style={{ color: trade.side === "buy" ? token.colorSuccess : token.colorError }}>
              {format.price(trade.p, instrument.displayDecimals)}
            </span>
            <span style={{ textAlign: "end" }}>{format.quantity(trade.q, qtyDecimals)}</span>
            <span style={{ textAlign: "end", color: token.colorTextSecondary }}>{format.time(trade.t)}</span>
          </div>
        ))}
      </div>
    );
  }

  return (
    <Panel
      size="small"
      title={t("market.trades.title")}
      bodyStyle={{ padding: "4px 0 8px" }}
      testId="recent-trades"
    >
      <div
        className="ns-book-row"
        style={{ gridTemplateColumns: "1fr 1fr 1fr", color: token.colorTextTertiary, fontSize: 12 }}
      >
        <span>{t("market.book.price", { unit: instrument.quote })}</span>
        <span style={{ textAlign: "end" }}>{t("market.book.amount", { unit: instrument.base })}</span>
        <span style={{ textAlign: "end" }}>{t("market.trades.time")}</span>
      </div>
      {body}
    </Panel>
  );
}
