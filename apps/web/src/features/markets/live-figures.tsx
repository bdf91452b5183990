import type { Ticker } from "@northstar/shared/markets";
import { MoneyDecimal } from "@northstar/shared/money";
import { theme } from "antd";
import { type CSSProperties, useEffect, useRef, useState } from "react";
import { useTickerValue } from "../../lib/market-socket.ts";
import type { MarketRow } from "./market-data.ts";
import { type Direction, direction, useMarketFormat } from "./market-format.ts";
import "./markets.css";
import { Text } from "../common/typography.tsx";

/** Green up, red down (antd's success and error colours follow the light or dark theme). */
function useDirectionColor() {
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
      <Text type="secondary" data-testid={testId}>
        —
      </Text>
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
    return <Text type="secondary">—</Text>;
  }
  return (
    <span style={{ fontVariantNumeric: "tabular-nums", whiteSpace: "nowrap" }}>
      {format.volume(turnover)}{" "}
      <Text type="secondary" style={{ fontSize: 12 }}>
        {row.quote}
      </Text>
    </span>
  );
}
