import {
  type Candle,
  type CandlePeriod,
  type ChannelEvent,
  channel,
  type Depth,
  MarketSocket,
  type MarketTrade,
  type SocketLike,
  type Ticker,
} from "@northstar/shared/markets";
import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from "react";
import { tokenStore } from "./session.ts";

/*
 * The app's one connection to the market socket at /ws (protocol in docs/market-socket.md), and the
 * hooks that read it. The connection opens on first use and then stays: the shared client
 * resubscribes and reconnects by itself, and screens subscribe only to the channels they show.
 */

export type SocketStatus = "connecting" | "open" | "closed";

let socket: MarketSocket | null = null;
let status: SocketStatus = "connecting";
const statusListeners = new Set<() => void>();

/** The shared socket, opened on first use. */
export function marketSocket(): MarketSocket {
  if (!socket) {
    const scheme = window.location.protocol === "https:" ? "wss:" : "ws:";
    socket = new MarketSocket({
      url: `${scheme}//${window.location.host}/ws`,
      // The browser's WebSocket has the members SocketLike names; its handler types are just wider.
      connect: (url) => new WebSocket(url) as unknown as SocketLike,
      token: () => tokenStore.get() || null,
      onStatus: (next) => {
        status = next;
        for (const listener of statusListeners) {
          listener();
        }
      },
    });
  }
  return socket;
}

/** Whether the socket is connected: for the "live" mark next to prices. */
export function useSocketStatus(): SocketStatus {
  // A screen showing the status shows live data too; opening here keeps the status true even before it subscribes.
  useEffect(() => {
    marketSocket();
  }, []);
  return useSyncExternalStore(
    useCallback((listener: () => void) => {
      statusListeners.add(listener);
      return () => {
        statusListeners.delete(listener);
      };
    }, []),
    () => status,
  );
}

// ——— Tickers ——————————————————————————————————————————————————————————————————————————————

/** What useTickers returns: every instrument's ticker by symbol, and whether the snapshot came. */
export interface TickerState {
  /** true once the first snapshot arrived (before that, prices come from the list requests) */
  ready: boolean;
  tickers: ReadonlyMap<string, Ticker>;
  /** bumps on every change, so a component can depend on it */
  version: number;
}

/** Time the `tickers` subscription is kept after the last screen using it goes, so page changes do not churn it. */
const RELEASE_DELAY_MS = 10_000;

/**
 * Every instrument's latest ticker, kept in one Map outside React. Components subscribe to one
 * symbol (useTicker) and re-render only when that symbol's ticker changes; lists that need every
 * ticker (the gainers) subscribe to all.
 */
class TickerStore {
  private readonly map = new Map<string, Ticker>();
  private readonly bySymbol = new Map<string, Set<() => void>>();
  /** useTickers: every change */
  private readonly onAnyChange = new Set<() => void>();
  /** useTicker: snapshots and resets (besides their own symbol's changes) */
  private readonly onReset = new Set<() => void>();
  private ready = false;
  private version = 0;
  private state: TickerState = { ready: false, tickers: this.map, version: 0 };
  private users = 0;
  private stop: (() => void) | null = null;
  private releaseTimer: ReturnType<typeof setTimeout> | null = null;

  /** Keeps the `tickers` channel subscribed while at least one component holds it. */
  retain = (): (() => void) => {
    this.users += 1;
    if (this.releaseTimer) {
      clearTimeout(this.releaseTimer);
      this.releaseTimer = null;
    }
    if (!this.stop) {
      this.stop = marketSocket().subscribe<Ticker[] | null>(channel.tickers(), this.receive);
    }
    let released = false;
    return () => {
      if (released) {
        return;
      }
      released = true;
      this.users -= 1;
      if (this.users === 0) {
        this.releaseTimer = setTimeout(() => {
          this.releaseTimer = null;
          if (this.users === 0 && this.stop) {
            this.stop();
            this.stop = null;
            // Without the subscription the prices would go stale; the next user starts from a snapshot.
            this.ready = false;
            this.bump();
          }
        }, RELEASE_DELAY_MS);
      }
    };
  };

  get = (symbol: string): Ticker | undefined => this.map.get(symbol);

  isReady = (): boolean => this.ready;

  getState = (): TickerState => {
    if (this.state.version !== this.version || this.state.ready !== this.ready) {
      this.state = { ready: this.ready, tickers: this.map, version: this.version };
    }
    return this.state;
  };

  subscribeSymbol = (symbol: string, listener: () => void): (() => void) => {
    let set = this.bySymbol.get(symbol);
    if (!set) {
      set = new Set();
      this.bySymbol.set(symbol, set);
    }
    set.add(listener);
    // A snapshot (or losing the subscription) changes every symbol, and whether the socket's price applies.
    this.onReset.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0) {
        this.bySymbol.delete(symbol);
      }
      this.onReset.delete(listener);
    };
  };

  /** Snapshots and resets only: for components that need readiness, not prices. */
  subscribeReset = (listener: () => void): (() => void) => {
    this.onReset.add(listener);
    return () => {
      this.onReset.delete(listener);
    };
  };

  subscribeAll = (listener: () => void): (() => void) => {
    this.onAnyChange.add(listener);
    return () => {
      this.onAnyChange.delete(listener);
    };
  };

  private readonly receive = (event: ChannelEvent<Ticker[] | null>) => {
    const list = Array.isArray(event.data) ? event.data : [];
    if (event.snapshot) {
      this.map.clear();
      for (const ticker of list) {
        this.map.set(ticker.s, ticker);
      }
      this.ready = true;
      this.bump();
      return;
    }
    this.version += 1;
    const changed = new Set<() => void>();
    for (const ticker of list) {
      this.map.set(ticker.s, ticker);
      for (const listener of this.bySymbol.get(ticker.s) ?? []) {
        changed.add(listener);
      }
    }
    for (const listener of changed) {
      listener();
    }
    for (const listener of this.onAnyChange) {
      listener();
    }
  };

  /** A change every listener must see: a snapshot, or losing the subscription. */
  private bump() {
    this.version += 1;
    for (const listener of [...this.onReset, ...this.onAnyChange]) {
      listener();
    }
  }
}

const tickerStore = new TickerStore();

/** Every ticker; re-renders on any price change. For lists that rank by price (the gainers). */
export function useTickers(): TickerState {
  useEffect(() => tickerStore.retain(), []);
  return useSyncExternalStore(tickerStore.subscribeAll, tickerStore.getState);
}

/** Whether the `tickers` snapshot arrived (keeps the channel subscribed); re-renders only when that changes. */
export function useTickersReady(): boolean {
  useEffect(() => tickerStore.retain(), []);
  return useSyncExternalStore(tickerStore.subscribeReset, tickerStore.isReady);
}

/** The tickers as they are now, without subscribing: for rankings recomputed now and then. */
export function currentTickers(): ReadonlyMap<string, Ticker> {
  return tickerStore.getState().tickers;
}

/**
 * One instrument's live ticker, or `fallback` (the ticker that came with a list or instrument
 * request) until the socket's snapshot arrives. Re-renders only when this symbol's ticker changes.
 */
export function useTicker(symbol: string | undefined, fallback?: Ticker | null): Ticker | undefined {
  useEffect(() => tickerStore.retain(), []);
  const subscribe = useCallback(
    (listener: () => void) => (symbol ? tickerStore.subscribeSymbol(symbol, listener) : () => {}),
    [symbol],
  );
  const live = useSyncExternalStore(subscribe, () => (symbol ? tickerStore.get(symbol) : undefined));
  const ready = useSyncExternalStore(subscribe, tickerStore.isReady);
  return live ?? (ready ? undefined : (fallback ?? undefined));
}

/**
 * One field of an instrument's live ticker (price, change, open…), falling back like useTicker.
 * The value is a primitive, so a cell re-renders only when what it shows changes: a pair label
 * that shows "closed" does not re-render on every price tick.
 */
export function useTickerValue<T extends string | number | boolean>(
  symbol: string | undefined,
  fallback: Ticker | null | undefined,
  select: (ticker: Ticker) => T,
): T | undefined {
  useEffect(() => tickerStore.retain(), []);
  const subscribe = useCallback(
    (listener: () => void) => (symbol ? tickerStore.subscribeSymbol(symbol, listener) : () => {}),
    [symbol],
  );
  return useSyncExternalStore(subscribe, () => {
    const live = symbol ? tickerStore.get(symbol) : undefined;
    const ticker = live ?? (tickerStore.isReady() ? undefined : (fallback ?? undefined));
    return ticker ? select(ticker) : undefined;
  });
}

// ——— Per-instrument channels ————————————————————————————————————————————————————————————————

/** Keeps a callback in a ref so a subscription does not restart when the callback changes. */
function useLatest<T>(value: T) {
  const ref = useRef(value);
  useEffect(() => {
    ref.current = value;
  }, [value]);
  return ref;
}

/**
 * The forming candle of `symbol` at `period` (`kline:<SYMBOL>:<period>`): `onCandle` runs with
 * the current candle on subscribing and on every change.
 */
export function useKline(
  symbol: string | undefined,
  period: CandlePeriod,
  onCandle: (candle: Candle) => void,
): void {
  const callback = useLatest(onCandle);
  useEffect(() => {
    if (!symbol) {
      return;
    }
    return marketSocket().subscribe<Candle | null>(channel.kline(symbol, period), (event) => {
      if (event.data) {
        callback.current(event.data);
      }
    });
  }, [symbol, period, callback]);
}

/** The order book of `symbol` (`depth:<SYMBOL>`), best levels first; null until the first snapshot. */
export function useDepth(symbol: string | undefined): { depth: Depth | null; ready: boolean } {
  const [state, setState] = useState<{ symbol: string | undefined; depth: Depth | null; ready: boolean }>({
    symbol,
    depth: null,
    ready: false,
  });
  useEffect(() => {
    if (!symbol) {
      return;
    }
    setState({ symbol, depth: null, ready: false });
    return marketSocket().subscribe<Depth | null>(channel.depth(symbol), (event) => {
      const data = event.data;
      setState({
        symbol,
        ready: true,
        depth: data ? { bids: data.bids ?? [], asks: data.asks ?? [] } : null,
      });
    });
  }, [symbol]);
  return state.symbol === symbol ? { depth: state.depth, ready: state.ready } : { depth: null, ready: false };
}

/** How many recent trades are kept. */
export const TRADES_KEPT = 50;

const newestFirst = (a: MarketTrade, b: MarketTrade) => b.t - a.t;

/**
 * The recent trades of `symbol` (`trades:<SYMBOL>`), newest first, at most TRADES_KEPT. The snapshot
 * holds the recent trades; each update adds the new ones.
 */
export function useTrades(symbol: string | undefined): { trades: MarketTrade[]; ready: boolean } {
  const [state, setState] = useState<{ symbol: string | undefined; trades: MarketTrade[]; ready: boolean }>({
    symbol,
    trades: [],
    ready: false,
  });
  useEffect(() => {
    if (!symbol) {
      return;
    }
    setState({ symbol, trades: [], ready: false });
    return marketSocket().subscribe<MarketTrade[] | null>(channel.trades(symbol), (event) => {
      const incoming = Array.isArray(event.data) ? [...event.data].sort(newestFirst) : [];
      setState((previous) => {
        if (event.snapshot || previous.symbol !== symbol) {
          return { symbol, ready: true, trades: incoming.slice(0, TRADES_KEPT) };
        }
        const seen = new Set(incoming.map((trade) => trade.id));
        const kept = previous.trades.filter((trade) => !seen.has(trade.id));
        return { symbol, ready: true, trades: [...incoming, ...kept].slice(0, TRADES_KEPT) };
      });
    });
  }, [symbol]);
  return state.symbol === symbol
    ? { trades: state.trades, ready: state.ready }
    : { trades: [], ready: false };
}
