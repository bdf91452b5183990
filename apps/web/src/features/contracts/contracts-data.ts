import type { AppRouter } from "@northstar/api/trpc";
import type { TContractPositionView } from "@northstar/shared/contracts/contracts";
import { channel } from "@northstar/shared/markets";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import { useEffect, useRef } from "react";
import { marketSocket } from "../../lib/market-socket.ts";
import { useRequestIntent, withRequestKey } from "../../lib/request-key.ts";
import { useIsLoggedIn, useToken } from "../../lib/session.ts";
import { useTRPC, useTRPCClient } from "../../lib/trpc.ts";

type Outputs = inferRouterOutputs<AppRouter>;
export type ContractProduct = Outputs["contracts"]["products"][number];
export type ContractScope = "holding" | "pending" | "history";

export function useContractProducts() {
  const trpc = useTRPC();
  return useQuery(trpc.contracts.products.queryOptions(undefined, { staleTime: 30_000 }));
}

export function useContractBalance() {
  const trpc = useTRPC();
  const loggedIn = useIsLoggedIn();
  return useQuery(trpc.contracts.balance.queryOptions(undefined, { enabled: loggedIn }));
}

export function useContractPositions(scope: ContractScope) {
  const trpc = useTRPC();
  const loggedIn = useIsLoggedIn();
  return useQuery(
    trpc.contracts.positions.queryOptions(
      { scope, page: 1, page_size: 50 },
      { enabled: loggedIn, placeholderData: keepPreviousData },
    ),
  );
}

function useRefreshContracts() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries(trpc.contracts.positions.pathFilter());
    void queryClient.invalidateQueries(trpc.contracts.balance.pathFilter());
    void queryClient.invalidateQueries(trpc.asset.pathFilter());
  };
}

/** Money actions go with an Idempotency-Key, so a resend answers the first result. */
export function useOpenContract() {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const refresh = useRefreshContracts();
  const intent = useRequestIntent();
  return useMutation({
    ...trpc.contracts.open.mutationOptions({ onSettled: refresh }),
    mutationFn: withRequestKey(client.contracts.open.mutate, intent),
  });
}

export function useCloseContract() {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const refresh = useRefreshContracts();
  const intent = useRequestIntent();
  return useMutation({
    ...trpc.contracts.close.mutationOptions({ onSettled: refresh }),
    mutationFn: withRequestKey(client.contracts.close.mutate, intent),
  });
}

export function useAdjustMargin() {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const refresh = useRefreshContracts();
  const intent = useRequestIntent();
  return useMutation({
    ...trpc.contracts.adjustMargin.mutationOptions({ onSettled: refresh }),
    mutationFn: withRequestKey(client.contracts.adjustMargin.mutate, intent),
  });
}

export function useCloseAllContracts() {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const refresh = useRefreshContracts();
  const intent = useRequestIntent();
  return useMutation({
    ...trpc.contracts.closeAll.mutationOptions({ onSettled: refresh }),
    mutationFn: withRequestKey(client.contracts.closeAll.mutate, intent),
  });
}

export function useCancelContract() {
  const trpc = useTRPC();
  const refresh = useRefreshContracts();
  return useMutation(trpc.contracts.cancel.mutationOptions({ onSettled: refresh }));
}

/**
 * While mounted and signed in: the risk engine's fills and closes (TP, SL, liquidation) arrive on
 * the socket's `user` channel; each refreshes the lists and is announced once.
 */
export function useContractEvents(announce: (kind: string, position: TContractPositionView) => void) {
  const token = useToken();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const latest = useRef(announce);
  latest.current = announce;
  useEffect(() => {
    if (!token) {
      return;
    }
    const seen = new Set<string>();
    return marketSocket().subscribe<unknown>(channel.user(), (event) => {
      const list = event.snapshot ? [] : Array.isArray(event.data) ? event.data : [event.data];
      for (const item of list) {
        const e = item as { type?: unknown; kind?: string; position?: TContractPositionView };
        if (e?.type === "contract.position" && e.position && e.kind) {
          void queryClient.invalidateQueries(trpc.contracts.positions.pathFilter());
          void queryClient.invalidateQueries(trpc.contracts.balance.pathFilter());
          const key = `${e.position.id}:${e.kind}`;
          if (!seen.has(key)) {
            seen.add(key);
            latest.current(e.kind, e.position);
          }
        }
      }
    });
  }, [token, queryClient, trpc]);
}
