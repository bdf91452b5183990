import { LANGUAGE_INFO } from "@northstar/shared/languages";
import { useMemo } from "react";
import { useLanguage } from "../../lib/session.ts";

/** Formats unix seconds as a date in the interface language (Thai shows the Buddhist year, as Thai readers expect). */
export function useFormatDate(style: "medium" | "long" = "medium"): (unixSeconds: number) => string {
  const lang = useLanguage();
  return useMemo(() => {
    const format = new Intl.DateTimeFormat(LANGUAGE_INFO[lang].bcp47, { dateStyle: style });
    return (unixSeconds: number) => format.format(new Date(unixSeconds * 1000));
  }, [lang, style]);
}
