import type { AppRouter } from "@northstar/api/trpc";
import type { TOptionOrderView } from "@northstar/shared/contracts/options";
import { channel } from "@northstar/shared/markets";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import { useCallback, useEffect, useRef } from "react";
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
 * While mounted and signed in: announces each of the user's options once when it settles. The
 * socket's `user` channel brings the event at once; `watchOpen` covers a missed event (a reconnect,
 * a gap): an order that leaves the open list is read and announced if it has settled.
 */
export function useOptionResults(onSettled: (order: TOptionOrderView) => void) {
  const token = useToken();
  const trpc = useTRPC();
  const client = useTRPCClient();
  const queryClient = useQueryClient();
  const announced = useRef(new Set<number>());
  const latest = useRef(onSettled);
  latest.current = onSettled;
  const announce = useCallback(
    (order: TOptionOrderView) => {
      if (order.status === "open" || announced.current.has(order.id)) {
        return;
      }
      announced.current.add(order.id);
      void queryClient.invalidateQueries(trpc.options.orders.pathFilter());
      void queryClient.invalidateQueries(trpc.options.balance.pathFilter());
      void queryClient.invalidateQueries(trpc.asset.pathFilter());
      latest.current(order);
    },
    [queryClient, trpc],
  );
  useEffect(() => {
    if (!token) {
      return;
    }
    let first = true;
    return marketSocket().subscribe<unknown>(channel.user(), (event) => {
      if (event.snapshot) {
        // A later snapshot follows a reconnect or a gap: read the open list again.
        if (!first) {
          void queryClient.invalidateQueries(trpc.options.orders.pathFilter());
        }
        first = false;
        return;
      }
      const list = Array.isArray(event.data) ? event.data : [event.data];
      for (const item of list) {
        const e = item as { type?: unknown; order?: TOptionOrderView };
        if (e?.type === "option.order" && e.order) {
          announce(e.order);
        }
      }
    });
  }, [token, announce, queryClient, trpc]);

  const seen = useRef<Set<number> | null>(null);
  const watchOpen = useCallback(
    (open: TOptionOrderView[] | undefined) => {
      if (!open) {
        return;
      }
      const now = new Set(open.map((o) => o.id));
      for (const id of seen.current ?? []) {
        if (!now.has(id) && !announced.current.has(id)) {
          void client.options.order.query({ id }).then(announce, () => undefined);
        }
      }
      seen.current = now;
    },
    [client, announce],
  );
  return { watchOpen };
}
