import type { SocketStatus } from "../../lib/market-socket.ts";

/** What the live indicator beside a price shows: the socket's state, or "market-closed" (grey, "last price"). */
export type IndicatorState = SocketStatus | "market-closed";

/**
 * Whether a market trades now: the live ticker's flag once one has arrived (the feed recomputes it
 * from the trading hours every second), else the catalogue's answer at load.
 */
export function marketOpenNow(ticker: { x: boolean } | undefined, instrument: { open: boolean }): boolean {
  return ticker ? ticker.x : instrument.open;
}

/**
 * A market outside its trading hours shows "last price (market closed)" whatever the socket does:
 * never a green "Live" beside its "Closed" tag, since no price is moving.
 */
export function indicatorState(open: boolean, socket: SocketStatus): IndicatorState {
  return open ? socket : "market-closed";
}
