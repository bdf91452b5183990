import type { TContentItem } from "@northstar/shared/contracts/content";
import type { TSessionInfo } from "@northstar/shared/contracts/identity";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "react-router";
import { legacyCall } from "./legacy.ts";
import { clearSession, useLanguage, useToken } from "./session.ts";
import { useTRPCClient } from "./trpc.ts";

/** The signed-in user's session state (web/info); disabled without a token. */
export function useSession() {
  const token = useToken();
  return useQuery({
    queryKey: ["web/info", token],
    queryFn: () => legacyCall<TSessionInfo>("info", {}, { method: "GET" }),
    enabled: token !== "",
    staleTime: 30_000,
  });
}

export function useSiteSettings() {
  return useQuery({
    queryKey: ["web/getLogo"],
    queryFn: () =>
      legacyCall<{ name: string; logo: string; support_email: string }>(
        "getLogo",
        {},
        { method: "GET", silent: true },
      ),
    staleTime: 10 * 60_000,
  });
}

export function useTexts(params: {
  id?: number;
  kind?: "news" | "announcement" | "help";
  page?: number;
  pageSize?: number;
}) {
  const lang = useLanguage();
  return useQuery({
    queryKey: ["web/getTextsList", params, lang],
    queryFn: () =>
      legacyCall<{ total: number; list: TContentItem[] }>(
        "getTextsList",
        { id: params.id, kind: params.kind, page: params.page ?? 1, page_size: params.pageSize ?? 10 },
        { method: "GET" },
      ),
  });
}

/**
 * Logs out: revokes the session on the server, then goes to /login and clears the token from
 * storage. Navigating first keeps the guard from adding a redirect back to the page just left.
 */
export function useLogout() {
  const client = useTRPCClient();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: async () => {
      await client.identity.logout.mutate().catch(() => undefined);
    },
    onSettled: () => {
      void navigate("/login", { replace: true });
      clearSession();
      queryClient.clear();
    },
  });
}
