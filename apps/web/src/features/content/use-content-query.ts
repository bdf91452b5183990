import { useQuery } from "@tanstack/react-query";
import { useLanguage } from "../../lib/session.ts";
import { useTRPC } from "../../lib/trpc.ts";

/**
 * The help centre and banners answer in the request's language; the language joins the cache key so
 * switching it fetches the texts again.
 */
export function useHelpCentre() {
  const trpc = useTRPC();
  const lang = useLanguage();
  const options = trpc.content.helpCentre.queryOptions();
  return useQuery({
    ...options,
    queryKey: [...options.queryKey, lang] as unknown as typeof options.queryKey,
  });
}

export function useHelpArticle(id: number) {
  const trpc = useTRPC();
  const lang = useLanguage();
  const options = trpc.content.helpArticle.queryOptions({ id }, { enabled: id > 0 });
  return useQuery({
    ...options,
    queryKey: [...options.queryKey, lang] as unknown as typeof options.queryKey,
  });
}

export function useBanner(id: number) {
  const trpc = useTRPC();
  const lang = useLanguage();
  const options = trpc.content.banner.queryOptions({ id }, { enabled: id > 0 });
  return useQuery({
    ...options,
    queryKey: [...options.queryKey, lang] as unknown as typeof options.queryKey,
  });
}

/** A positive id from `?id=`, or 0. */
export const idParam = (search: string) => {
  const raw = new URLSearchParams(search).get("id") ?? "";
  return /^\d{1,12}$/.test(raw) ? Number(raw) : 0;
};
