import { useQuery } from "@tanstack/react-query";
import { useLanguage } from "../../lib/session.ts";
import { useTRPCClient } from "../../lib/trpc.ts";

/*
 * The help centre and banners answer in the request's language: the language is part of each cache
 * key, so switching it fetches the texts again.
 */

export function useHelpCentre() {
  const client = useTRPCClient();
  const lang = useLanguage();
  return useQuery({
    queryKey: ["content.helpCentre", lang],
    queryFn: () => client.content.helpCentre.query(),
  });
}

export function useHelpArticle(id: number) {
  const client = useTRPCClient();
  const lang = useLanguage();
  return useQuery({
    queryKey: ["content.helpArticle", id, lang],
    queryFn: () => client.content.helpArticle.query({ id }),
    enabled: id > 0,
  });
}

export function useBanner(id: number) {
  const client = useTRPCClient();
  const lang = useLanguage();
  return useQuery({
    queryKey: ["content.banner", id, lang],
    queryFn: () => client.content.banner.query({ id }),
    enabled: id > 0,
  });
}

/** A positive id from `?id=`, or 0. */
export const idParam = (search: string) => {
  const raw = new URLSearchParams(search).get("id") ?? "";
  return /^\d{1,12}$/.test(raw) ? Number(raw) : 0;
};
