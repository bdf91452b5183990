import type { AppRouter } from "@northstar/api/trpc";
import type { TOptionOrderView } from "@northstar/shared/contracts/options";
import { channel } from "@northstar/shared/markets";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import { useEffect, useRef } from "react";
import { marketSocket } from "../../lib/market-socket.ts";
import { useRequestIntent, withRequestKey } from "../../lib/request-key.ts";
import { useIsLoggedIn, useToken } from "../../lib/session.ts";
import { useTRPC, useTRPCClient } from "../../lib/trpc.ts";

type Outputs = inferRouterOutputs<AppRouter>;
export type OptionProduct = Outputs["options"]["products"][number];
export type OptionPeriod = OptionProduct["periods"][number];

export function useOptionProducts() {
  const trpc = useTRPC();
  return useQuery(trpc.options.products.queryOptions(undefined, { staleTime: 30_000 }));
}

export function useOptionBalance() {
  const trpc = useTRPC();
  const loggedIn = useIsLoggedIn();
  return useQuery(trpc.options.balance.queryOptions(undefined, { enabled: loggedIn }));
}

export const RECORD_PAGE_SIZE = 20;

/**
 * The user's open options (re-read every 2 s while one is past its expiry, in case the socket event
 * is missed) or the delivery record.
 */
export function useOptionOrders(scope: "open" | "history", page = 1) {
  const trpc = useTRPC();
  const loggedIn = useIsLoggedIn();
  return useQuery(
    trpc.options.orders.queryOptions(
      { scope, page, page_size: RECORD_PAGE_SIZE },
      {
        enabled: loggedIn,
        placeholderData: keepPreviousData,
        refetchInterval: (query) =>
          scope === "open" &&
          query.state.data?.items.some((o) => new Date(o.expires_at).getTime() <= Date.now())
            ? 2000
            : false,
      },
    ),
  );
}

function useRefreshOptions() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries(trpc.options.orders.pathFilter());
    void queryClient.invalidateQueries(trpc.options.balance.pathFilter());
    void queryClient.invalidateQueries(trpc.asset.pathFilter());
  };
}

export function useBuyOption() {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const refresh = useRefreshOptions();
  const intent = useRequestIntent();
  return useMutation({
    ...trpc.options.buy.mutationOptions({ onSettled: refresh }),
    mutationFn: withRequestKey(client.options.buy.mutate, intent),
  });
}

/**
 * While mounted and signed in: listens to the `user` channel and, when one of the user's options
 * settles, reads the lists again and hands the settled order to `onSettled` (the result toast).
 */
export function useOptionLiveUpdates(onSettled: (order: TOptionOrderView) => void) {
  const token = useToken();
  const refresh = useRefreshOptions();
  const latest = useRef({ onSettled, refresh });
  latest.current = { onSettled, refresh };
  useEffect(() => {
    if (!token) {
      return;
    }
    return marketSocket().subscribe<unknown>(channel.user(), (event) => {
      if (event.snapshot) {
        return;
      }
      const list = Array.isArray(event.data) ? event.data : [event.data];
      for (const item of list) {
        const e = item as { type?: unknown; order?: TOptionOrderView };
        if (e?.type === "option.order" && e.order) {
          latest.current.refresh();
          latest.current.onSettled(e.order);
        }
      }
    });
  }, [token]);
}
