/** Binance's kline intervals the platform's candles have (1y is ours alone). */
const INTERVALS = new Set(["1m", "5m", "15m", "1h", "4h", "1d", "1w", "1M"]);

export type StreamKind =
  | "trade"
  | "aggTrade"
  | "depthDiff"
  | "depthPartial"
  | "kline"
  | "ticker"
  | "miniTicker"
  | "allMiniTickers"
  | "bookTicker";

/** A parsed stream name: what it shows and which platform channel feeds it. */
export interface StreamSpec {
  /** the name as the client sent it (Binance's symbol in lower case) */
  name: string;
  kind: StreamKind;
  /** the Binance symbol, upper case; empty for the all-market `!miniTicker@arr` */
  symbol: string;
  levels?: number;
  interval?: string;
}

const STREAM_PATTERN =
  /^([a-z0-9]{2,32})@(trade|aggTrade|depth(5|10|20)?(@(100|1000)ms)?|kline_(1m|5m|15m|1h|4h|1d|1w|1M)|ticker|miniTicker|bookTicker)$/;

/** Parses one stream name (`btcusdt@trade`, `btcusdt@depth20@100ms`, …); null when not one we serve. */
export function parseStreamName(name: string): StreamSpec | null {
  if (name === "!miniTicker@arr") {
    return { name, kind: "allMiniTickers", symbol: "" };
  }
  const match = STREAM_PATTERN.exec(name);
  if (!match?.[1] || !match[2]) {
    return null;
  }
  const symbol = match[1].toUpperCase();
  const what = match[2];
  if (
    what === "trade" ||
    what === "aggTrade" ||
    what === "ticker" ||
    what === "miniTicker" ||
    what === "bookTicker"
  ) {
    return { name, kind: what, symbol };
  }
  if (what.startsWith("kline_")) {
    const interval = match[6] ?? "";
    return INTERVALS.has(interval) ? { name, kind: "kline", symbol, interval } : null;
  }
  return match[3]
    ? { name, kind: "depthPartial", symbol, levels: Number(match[3]) }
    : { name, kind: "depthDiff", symbol };
}
