import type { AppRouter } from "@northstar/api/trpc";
import type { TSpotFillView, TSpotOrderView } from "@northstar/shared/contracts/spot";
import { channel } from "@northstar/shared/markets";
import { SPOT_OPEN_STATUSES, type SpotOrderStatus } from "@northstar/shared/state-machines";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import { useEffect } from "react";
import { marketSocket } from "../../lib/market-socket.ts";
import { useRequestIntent, withRequestKey } from "../../lib/request-key.ts";
import { useIsLoggedIn, useToken } from "../../lib/session.ts";
import { toApiError, useTRPC, useTRPCClient } from "../../lib/trpc.ts";
import { MARKET_PAGE_SIZE } from "../markets/market-data.ts";

type Outputs = inferRouterOutputs<AppRouter>;
export type SpotTerms = Outputs["spot"]["terms"];
export type SpotBalances = Outputs["spot"]["balances"];
export type SpotOrder = TSpotOrderView;
export type SpotFill = TSpotFillView;
export type OrderScope = "open" | "history";

/** Rows per page of the order and fill lists. */
export const SPOT_PAGE_SIZE = 20;

/** Orders that may still trade, and so can be cancelled. */
export const isOpenOrder = (order: Pick<SpotOrder, "status">) =>
  (SPOT_OPEN_STATUSES as readonly SpotOrderStatus[]).includes(order.status);

/**
 * The trading terms of one market (grid, fees, whether it is open, whether the trade password is
 * asked), or null when the instrument has no spot market: the screen says so itself, so that answer
 * is not a failure (which would also raise the generic warning toast).
 */
export function useSpotTerms(symbol: string) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  return useQuery({
    queryKey: trpc.spot.terms.queryKey({ symbol }),
    queryFn: async (): Promise<SpotTerms | null> => {
      try {
        return await client.spot.terms.query({ symbol });
      } catch (error) {
        if (toApiError(error).errorCode === "SPOT_NOT_AVAILABLE") {
          return null;
        }
        throw error;
      }
    },
    // Whether the market is open changes with the clock.
    refetchInterval: 60_000,
    staleTime: 30_000,
  });
}

/** The exchange wallet's base and quote balances; nothing for visitors. */
export function useSpotBalances(symbol: string, enabled = true) {
  const trpc = useTRPC();
  const loggedIn = useIsLoggedIn();
  return useQuery(trpc.spot.balances.queryOptions({ symbol }, { enabled: loggedIn && enabled }));
}

/** One page of the user's orders, of one market or of all. */
export function useSpotOrders(params: {
  scope: OrderScope;
  symbol?: string | undefined;
  page: number;
  pageSize?: number;
}) {
  const trpc = useTRPC();
  const loggedIn = useIsLoggedIn();
  return useQuery(
    trpc.spot.getMany.queryOptions(
      {
        scope: params.scope,
        symbol: params.symbol,
        page: params.page,
        page_size: params.pageSize ?? SPOT_PAGE_SIZE,
      },
      { enabled: loggedIn, placeholderData: keepPreviousData },
    ),
  );
}

/** One page of the user's fills, of one market or of all. */
export function useSpotFills(params: { symbol?: string | undefined; page: number }) {
  const trpc = useTRPC();
  const loggedIn = useIsLoggedIn();
  return useQuery(
    trpc.spot.fills.queryOptions(
      { symbol: params.symbol, page: params.page, page_size: SPOT_PAGE_SIZE },
      { enabled: loggedIn, placeholderData: keepPreviousData },
    ),
  );
}

/** The markets with a spot book, for the market picker and the records filter. */
export function useSpotMarkets(search?: string) {
  const trpc = useTRPC();
  return useQuery(
    trpc.market.list.queryOptions(
      { tab: "exchange", search: search || undefined, page: 1, page_size: MARKET_PAGE_SIZE },
      { placeholderData: keepPreviousData, staleTime: 60_000 },
    ),
  );
}

/** Reads the order lists, fills and balances again (after a place, a cancel, or a socket event). */
export function useRefreshSpot() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries(trpc.spot.getMany.pathFilter());
    void queryClient.invalidateQueries(trpc.spot.fills.pathFilter());
    void queryClient.invalidateQueries(trpc.spot.balances.pathFilter());
    // The assets pages show the same exchange wallet.
    void queryClient.invalidateQueries(trpc.asset.pathFilter());
  };
}

export function usePlaceOrder() {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const refresh = useRefreshSpot();
  const intent = useRequestIntent();
  return useMutation({
    ...trpc.spot.place.mutationOptions({ onSettled: refresh }),
    mutationFn: withRequestKey(client.spot.place.mutate, intent),
  });
}

export function useCancelOrder() {
  const trpc = useTRPC();
  const refresh = useRefreshSpot();
  return useMutation(trpc.spot.cancel.mutationOptions({ onSettled: refresh }));
}

/** Events of the `user` channel that change what the spot screens show. */
const SPOT_EVENTS = new Set(["spot.order", "balance"]);
/** A market order that takes many levels sends an event per fill: one refetch covers a burst. */
const REFRESH_DELAY_MS = 150;

/**
 * Keeps the spot screens live: while mounted (and signed in) it listens to the socket's `user`
 * channel and, on an order or balance event, reads the spot queries again.
 */
export function useSpotLiveUpdates() {
  const token = useToken();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!token) {
      return;
    }
    let timer: ReturnType<typeof setTimeout> | null = null;
    const refresh = () => {
      timer = null;
      void queryClient.invalidateQueries(trpc.spot.pathFilter());
      void queryClient.invalidateQueries(trpc.asset.pathFilter());
    };
    // The token is read when subscribing, so a new session subscribes again (the effect depends on it).
    let first = true;
    const stop = marketSocket().subscribe<unknown>(channel.user(), (event) => {
      if (event.snapshot) {
        // A later snapshot follows a reconnect or a gap: events may have been missed, so read again.
        if (!first && timer === null) {
          timer = setTimeout(refresh, REFRESH_DELAY_MS);
        }
        first = false;
        return;
      }
      const list = Array.isArray(event.data) ? event.data : [event.data];
      const relevant = list.some(
        (item) =>
          typeof item === "object" &&
          item !== null &&
          SPOT_EVENTS.has(String((item as { type?: unknown }).type)),
      );
      if (relevant && timer === null) {
        timer = setTimeout(refresh, REFRESH_DELAY_MS);
      }
    });
    return () => {
      stop();
      if (timer) {
        clearTimeout(timer);
      }
    };
  }, [token, trpc, queryClient]);
}
