import { channel, MarketSocket, type SocketLike } from "@northstar/shared/markets";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { useTRPC } from "../../lib/trpc.ts";
import { operatorTokenStore } from "./operator-session.ts";

/**
 * Keeps the customer-service console live: a socket of the console's own, subscribed to the
 * `support` channel with the operator's token, reads the conversations again when any line arrives
 * (and after a reconnect, in case one was missed).
 */
export function useSupportFeed(): void {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  useEffect(() => {
    const scheme = window.location.protocol === "https:" ? "wss:" : "ws:";
    const socket = new MarketSocket({
      url: `${scheme}//${window.location.host}/ws`,
      connect: (url) => new WebSocket(url) as unknown as SocketLike,
      token: () => operatorTokenStore.get() || null,
    });
    let first = true;
    socket.subscribe<unknown>(channel.support(), (event) => {
      if (event.snapshot && first) {
        first = false;
        return;
      }
      void queryClient.invalidateQueries(trpc.admin.support.pathFilter());
    });
    return () => socket.close();
  }, [queryClient, trpc]);
}
