import type { TMessagesEvent } from "@northstar/shared/contracts/messages";
import { channel } from "@northstar/shared/markets";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { marketSocket } from "../../lib/market-socket.ts";
import { useToken } from "../../lib/session.ts";
import { useTRPC } from "../../lib/trpc.ts";

const isMessagesEvent = (data: unknown): data is TMessagesEvent =>
  typeof data === "object" && data !== null && (data as { type?: unknown }).type === "messages";

/**
 * The signed-in user's unread message count, kept live: the `user` socket channel announces each new
 * count (a message added, one read), and a reconnect reads it again in case one was missed.
 */
export function useUnreadMessages(): number {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const token = useToken();
  const unread = useQuery({ ...trpc.messages.unread.queryOptions(), enabled: token !== "" });

  useEffect(() => {
    if (!token) {
      return;
    }
    let first = true;
    return marketSocket().subscribe<unknown>(channel.user(), (event) => {
      if (event.snapshot) {
        if (!first) {
          void queryClient.invalidateQueries(trpc.messages.pathFilter());
        }
        first = false;
        return;
      }
      const list = Array.isArray(event.data) ? event.data : [event.data];
      const latest = list.filter(isMessagesEvent).at(-1);
      if (latest) {
        queryClient.setQueryData(trpc.messages.unread.queryKey(), { unread: latest.unread });
        void queryClient.invalidateQueries(trpc.messages.list.pathFilter());
      }
    });
  }, [token, queryClient, trpc]);

  return unread.data?.unread ?? 0;
}
