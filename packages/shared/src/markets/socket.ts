/**
 * The market socket protocol (served at `/ws`). Every message is a JSON object with `main_type` and,
 * from the server, `utime` (unix seconds). See docs/market-socket.md for the full description.
 */
export const MAIN_TYPE = {
  /** Client → server heartbeat every 20 s; the server answers with the same type. */
  heartbeat: 1,
  /** Client → server: subscribe to channels. */
  subscribe: 2,
  /** Client → server: unsubscribe. */
  unsubscribe: 3,
  /** Server → client: the full state of a channel, sent after each subscribe. */
  snapshot: 4,
  /** Server → client: an update; `seq` is the snapshot's plus one, then plus one each time. */
  update: 5,
  /** Server → client: a refused request (unknown channel, login needed, bad message). */
  error: 9,
} as const;

export const HEARTBEAT_INTERVAL_MS = 20_000;
export const RECONNECT_DELAY_MS = 1_000;

/**
 * Channels: `tickers` (every instrument), `kline:<SYMBOL>:<period>`, `depth:<SYMBOL>`,
 * `trades:<SYMBOL>`, `user` (the session's own order, balance, message and customer-service events;
 * needs `token`) and `support` (every customer-service conversation, for the operator console; needs an
 * operator's token as `token`).
 */
export type MarketChannel = string;

export const channel = {
  tickers: () => "tickers",
  kline: (symbol: string, period: string) => `kline:${symbol}:${period}`,
  depth: (symbol: string) => `depth:${symbol}`,
  trades: (symbol: string) => `trades:${symbol}`,
  user: () => "user",
  support: () => "support",
};

// Symbols and periods as in the catalogue and periods.ts.
const CHANNEL_PATTERN =
  /^(tickers|user|support|kline:[A-Z0-9._-]{1,32}:(1m|5m|15m|1h|4h|1d|1w|1M|1y)|(depth|trades):[A-Z0-9._-]{1,32})$/;

export function isValidChannel(ch: string): boolean {
  return CHANNEL_PATTERN.test(ch);
}

/** A ticker: last price and rolling 24-hour statistics, in short keys to keep frames small. */
export interface Ticker {
  /** symbol */
  s: string;
  /** last price */
  p: string;
  /** price 24 hours ago (open of the window) */
  o: string;
  /** 24h high / low */
  h: string;
  l: string;
  /** 24h volume in base / quote units */
  v: string;
  q: string;
  /** 24h change in percent, 2 decimals, e.g. "-1.25" */
  c: string;
  /** time of the last price, ms */
  t: number;
  /** whether the market is open now */
  x: boolean;
}

/** Order book depth: best levels first, each [price, quantity]. */
export interface Depth {
  bids: [string, string][];
  asks: [string, string][];
}

export interface MarketTrade {
  id: string;
  p: string;
  q: string;
  /** taker side */
  side: "buy" | "sell";
  t: number;
}

/** A channel message as the publisher writes it to Redis and the server forwards it. */
export interface ChannelMessage<T = unknown> {
  ch: MarketChannel;
  seq: number;
  /** when the publisher produced it, ms; clients use it to measure delay */
  ts: number;
  data: T;
}

export type ServerMessage =
  | { main_type: 1; utime: number }
  | ({ main_type: 4 | 5; utime: number } & ChannelMessage)
  | { main_type: 9; utime: number; ch?: string; code: string };

export type ClientMessage =
  | { main_type: 1; time: number }
  | { main_type: 2; sub: MarketChannel[]; token?: string }
  | { main_type: 3; unsub: MarketChannel[] };
