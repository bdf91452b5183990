import { StarFilled, StarOutlined } from "@ant-design/icons";
import type { Ticker } from "@northstar/shared/markets";
import { MoneyDecimal } from "@northstar/shared/money";
import { App, Badge, Button, Flex, Tag, Tooltip, Typography, theme } from "antd";
import { type CSSProperties, type MouseEvent, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useLocation } from "react-router";
import { useSocketStatus, useTickerValue } from "../../lib/market-socket.ts";
import { useAppNavigate } from "../../lib/navigation.tsx";
import { useIsLoggedIn } from "../../lib/session.ts";
import { CurrencyMark } from "../assets/currency-mark.tsx";
import { type MarketRow, pairName, useFavourites, useSetFavourite } from "./market-data.ts";
import { type Direction, direction, useMarketFormat } from "./market-format.ts";
import "./markets.css";

/** Green up, red down (antd's success and error colours follow the light or dark theme). */
export function useDirectionColor() {
  const { token } = theme.useToken();
  return (d: Direction): string | undefined =>
    d === "up" ? token.colorSuccess : d === "down" ? token.colorError : undefined;
}

/** How long a changed price stays highlighted. */
const FLASH_MS = 600;

/**
 * Which way the price last moved, for a moment after it moved. A plain highlight switched on and
 * off (not a fade) costs two paints per change, however many prices tick at once.
 */
function usePriceFlash(price: string | undefined): "up" | "down" | undefined {
  const previous = useRef(price);
  const [flash, setFlash] = useState<"up" | "down" | undefined>(undefined);
  useEffect(() => {
    const before = previous.current;
    previous.current = price;
    if (!before || !price || before === price) {
      return;
    }
    setFlash(new MoneyDecimal(price).gt(before) ? "up" : "down");
    const timer = setTimeout(() => setFlash(undefined), FLASH_MS);
    return () => clearTimeout(timer);
  }, [price]);
  return flash;
}

/**
 * The live last price of `symbol`, with the instrument's display decimals; flashes green or red
 * when it changes. `fallback` is the ticker that came with the list, shown until the socket's arrives.
 */
export function LivePrice({
  symbol,
  decimals,
  fallback,
  colored = false,
  style,
  testId,
}: {
  symbol: string;
  decimals: number;
  fallback?: Ticker | null;
  /** colour the figure by the 24h change */
  colored?: boolean;
  style?: CSSProperties;
  testId?: string;
}) {
  const { token } = theme.useToken();
  const price = useTickerValue(symbol, fallback, (t) => t.p);
  const change = useTickerValue(symbol, colored ? fallback : null, (t) => (colored ? t.c : ""));
  const format = useMarketFormat();
  const color = useDirectionColor();
  const flash = usePriceFlash(price);
  return (
    <span
      className="ns-price"
      data-flash={flash}
      data-testid={testId}
      style={{
        background: flash === "up" ? token.colorSuccessBg : flash === "down" ? token.colorErrorBg : undefined,
        color: colored ? color(direction(change)) : undefined,
        ...style,
      }}
    >
      {price ? format.price(price, decimals) : "—"}
    </span>
  );
}

/** The 24h change with its sign, green up and red down; as text, or as a filled pill. */
export function ChangeText({
  change,
  pill = false,
  testId,
}: {
  /** the 24h change in percent, "-1.25"; undefined without a price */
  change: string | undefined;
  pill?: boolean;
  testId?: string;
}) {
  const { token } = theme.useToken();
  const format = useMarketFormat();
  const color = useDirectionColor();
  if (change === undefined) {
    return (
      <Typography.Text type="secondary" data-testid={testId}>
        —
      </Typography.Text>
    );
  }
  const dir = direction(change);
  const text = format.change(change);
  if (pill) {
    return (
      <span
        data-testid={testId}
        data-direction={dir}
        style={{
          display: "inline-block",
          minWidth: 76,
          textAlign: "center",
          padding: "2px 8px",
          borderRadius: token.borderRadiusSM,
          background: dir === "flat" ? token.colorFillSecondary : color(dir),
          color: dir === "flat" ? token.colorText : "#fff",
          fontWeight: token.fontWeightStrong,
          fontVariantNumeric: "tabular-nums",
          whiteSpace: "nowrap",
        }}
      >
        {text}
      </span>
    );
  }
  return (
    <span
      data-testid={testId}
      data-direction={dir}
      style={{ color: color(dir), fontVariantNumeric: "tabular-nums", whiteSpace: "nowrap" }}
    >
      {text}
    </span>
  );
}

/** The live 24h change of one symbol. */
export function LiveChange({
  symbol,
  fallback,
  pill,
  testId,
}: {
  symbol: string;
  fallback?: Ticker | null;
  pill?: boolean;
  testId?: string;
}) {
  const change = useTickerValue(symbol, fallback, (t) => t.c);
  return <ChangeText change={change} pill={pill ?? false} testId={testId} />;
}

/** The live 24h volume in quote units, abbreviated. */
export function LiveVolume({ row }: { row: MarketRow }) {
  const turnover = useTickerValue(row.symbol, row.ticker, (t) => t.q);
  const format = useMarketFormat();
  if (turnover === undefined) {
    return <Typography.Text type="secondary">—</Typography.Text>;
  }
  return (
    <span style={{ fontVariantNumeric: "tabular-nums", whiteSpace: "nowrap" }}>
      {format.volume(turnover)}{" "}
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {row.quote}
      </Typography.Text>
    </span>
  );
}

/** Base/quote in bold with the instrument's name under it, and "closed" when its market is. */
export function PairLabel({
  row,
  size = 28,
  maxWidth = 200,
}: {
  row: MarketRow;
  size?: number;
  /** the name is cut with an ellipsis beyond this, so a long name cannot widen a table column */
  maxWidth?: number;
}) {
  const { token } = theme.useToken();
  const open = useTickerValue(row.symbol, row.ticker, (t) => t.x) ?? row.open;
  return (
    <Flex align="center" gap={10} style={{ minWidth: 0 }}>
      <CurrencyMark code={row.base} size={size} />
      <Flex vertical style={{ minWidth: 0, maxWidth }}>
        <Flex align="center" gap={6} wrap={false}>
          <Typography.Text strong style={{ lineHeight: 1.3, whiteSpace: "nowrap" }}>
            {pairName(row)}
          </Typography.Text>
          {!open && <ClosedTag />}
        </Flex>
        <Typography.Text type="secondary" ellipsis style={{ fontSize: token.fontSizeSM, lineHeight: 1.3 }}>
          {row.name}
        </Typography.Text>
      </Flex>
    </Flex>
  );
}

export function ClosedTag() {
  const { t } = useTranslation();
  return (
    <Tag
      style={{ marginInlineEnd: 0, fontSize: 11, lineHeight: "16px", paddingInline: 4 }}
      data-testid="market-closed"
    >
      {t("market.closed")}
    </Tag>
  );
}

/** A green dot while the socket is connected, orange while it (re)connects. */
export function LiveIndicator() {
  const { t } = useTranslation();
  const status = useSocketStatus();
  return (
    <Badge
      status={status === "open" ? "success" : "warning"}
      text={
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {t(`market.live.${status}`)}
        </Typography.Text>
      }
      data-testid="market-live"
      data-status={status}
    />
  );
}

/**
 * The favourite star. Signed-in users mark and unmark; visitors are asked to log in first and
 * come back here afterwards.
 */
export function FavouriteStar({ symbol, size = "small" }: { symbol: string; size?: "small" | "middle" }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const { modal, message } = App.useApp();
  const loggedIn = useIsLoggedIn();
  const location = useLocation();
  const go = useAppNavigate();
  const favourites = useFavourites();
  const setFavourite = useSetFavourite();
  const on = favourites.data?.includes(symbol) ?? false;
  const busy = setFavourite.isPending && setFavourite.variables?.symbol === symbol;
  const label = on ? t("market.favourite.remove") : t("market.favourite.add");

  const onClick = (e: MouseEvent) => {
    e.stopPropagation();
    if (!loggedIn) {
      modal.confirm({
        title: t("market.favourite.loginTitle"),
        content: t("market.favourite.loginText"),
        okText: t("nav.login"),
        cancelText: t("common.cancel"),
        onOk: () => go(`/login?redirect=${encodeURIComponent(location.pathname + location.search)}`),
      });
      return;
    }
    setFavourite.mutate(
      { symbol, favourite: !on },
      {
        onSuccess: () =>
          void message.success(on ? t("market.favourite.removed") : t("market.favourite.added"), 2),
      },
    );
  };

  return (
    <Tooltip title={label}>
      <Button
        type="text"
        size={size}
        shape="circle"
        aria-label={label}
        aria-pressed={on}
        loading={busy}
        onClick={onClick}
        data-testid={`favourite-${symbol}`}
        icon={
          on ? (
            <StarFilled style={{ color: token.colorWarning }} />
          ) : (
            <StarOutlined style={{ color: token.colorTextTertiary }} />
          )
        }
      />
    </Tooltip>
  );
}
