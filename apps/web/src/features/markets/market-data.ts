import type { AppRouter } from "@northstar/api/trpc";
import type { MARKET_TABS } from "@northstar/shared/contracts/markets";
import type { InstrumentCategory } from "@northstar/shared/markets";
import { MoneyDecimal } from "@northstar/shared/money";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import { useIsLoggedIn } from "../../lib/session.ts";
import { toApiError, useTRPC, useTRPCClient } from "../../lib/trpc.ts";

type Outputs = inferRouterOutputs<AppRouter>;
export type MarketRow = Outputs["market"]["list"]["items"][number];
/** One instrument's page: its row, and where its prices come from (paused, view-only). */
export type InstrumentRow = MarketRow & Partial<Pick<Outputs["market"]["instrument"], "prices">>;
export type MarketTab = (typeof MARKET_TABS)[number];

/** Rows per page of the market lists: one page is all the list ever fetches. */
export const MARKET_PAGE_SIZE = 50;

export interface MarketListParams {
  tab: MarketTab;
  category?: InstrumentCategory | undefined;
  search?: string | undefined;
  symbols?: string[] | undefined;
  page: number;
  pageSize: number;
}

/** One page of the catalogue with the tickers at the time of the request (live prices come from the socket). */
export function useMarketList(params: MarketListParams, options: { enabled?: boolean } = {}) {
  const trpc = useTRPC();
  return useQuery(
    trpc.market.list.queryOptions(
      {
        tab: params.tab,
        category: params.category,
        search: params.search || undefined,
        symbols: params.symbols,
        page: params.page,
        page_size: params.pageSize,
      },
      { enabled: options.enabled ?? true, placeholderData: keepPreviousData, staleTime: 60_000 },
    ),
  );
}

/**
 * One instrument, or null when the catalogue has no such symbol: the page says so itself, so that
 * answer is not a failure (which would also raise the generic warning toast).
 */
export function useInstrument(symbol: string) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  return useQuery({
    queryKey: trpc.market.instrument.queryKey({ symbol }),
    queryFn: async (): Promise<InstrumentRow | null> => {
      try {
        return await client.market.instrument.query({ symbol });
      } catch (error) {
        if (toApiError(error).errorCode === "INSTRUMENT_NOT_FOUND") {
          return null;
        }
        throw error;
      }
    },
    staleTime: 60_000,
  });
}

/** The signed-in user's favourite symbols; nothing for visitors. */
export function useFavourites() {
  const trpc = useTRPC();
  const loggedIn = useIsLoggedIn();
  return useQuery(trpc.market.favourites.queryOptions(undefined, { enabled: loggedIn, staleTime: 60_000 }));
}

/** Marks or unmarks a favourite; the answer is the new list, which replaces the cached one. */
export function useSetFavourite() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return useMutation(
    trpc.market.setFavourite.mutationOptions({
      onSuccess: (list) => {
        queryClient.setQueryData(trpc.market.favourites.queryKey(), list);
      },
    }),
  );
}

/** "BTC/USDT" for a pair whose symbol is base and quote; otherwise the symbol itself ("AAPL"). */
export function pairName(row: Pick<MarketRow, "symbol" | "base" | "quote">): string {
  return row.symbol === `${row.base}${row.quote}` ? `${row.base}/${row.quote}` : row.symbol;
}

/** The symbols of the `n` biggest 24h gainers among `tickers`, biggest first (compared as decimals). */
export function topGainers(tickers: Iterable<{ s: string; c: string }>, n: number): string[] {
  const list = [...tickers].map((ticker) => ({ s: ticker.s, c: new MoneyDecimal(ticker.c || "0") }));
  list.sort((a, b) => b.c.comparedTo(a.c) || a.s.localeCompare(b.s));
  return list.slice(0, n).map((ticker) => ticker.s);
}
