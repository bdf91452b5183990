import type { TSupportEvent } from "@northstar/shared/contracts/messages";
import { channel } from "@northstar/shared/markets";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { marketSocket } from "../../lib/market-socket.ts";
import { useToken } from "../../lib/session.ts";
import { useTRPC } from "../../lib/trpc.ts";

const isSupportEvent = (data: unknown): data is TSupportEvent =>
  typeof data === "object" && data !== null && (data as { type?: unknown }).type === "support";

/**
 * The user's customer-service conversation, live: a line from an operator arrives on the `user`
 * socket channel and the history is read again (a reconnect reads it too, in case one was missed).
 * While the page is open, what arrives counts as read.
 */
export function useSupportHistory() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const token = useToken();
  const history = useQuery(trpc.support.history.queryOptions({ limit: 100 }));
  const { mutate: markRead } = useMutation(trpc.support.read.mutationOptions());
  const unread = history.data?.unread ?? 0;

  useEffect(() => {
    if (unread > 0) {
      markRead();
    }
  }, [unread, markRead]);

  useEffect(() => {
    if (!token) {
      return;
    }
    let first = true;
    const refresh = () => void queryClient.invalidateQueries(trpc.support.history.pathFilter());
    return marketSocket().subscribe<unknown>(channel.user(), (event) => {
      if (event.snapshot) {
        if (!first) {
          refresh();
        }
        first = false;
        return;
      }
      const list = Array.isArray(event.data) ? event.data : [event.data];
      if (list.some(isSupportEvent)) {
        refresh();
      }
    });
  }, [token, queryClient, trpc]);

  return history;
}
