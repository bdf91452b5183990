import { LANGUAGE_INFO } from "@northstar/shared/languages";
import { useMemo } from "react";
import { useLanguage } from "../../lib/session.ts";

/** Date and time in the interface language (Thai shows the Buddhist year). */
export function useFormatDateTime(): (value: string | Date) => string {
  const lang = useLanguage();
  return useMemo(() => {
    const format = new Intl.DateTimeFormat(LANGUAGE_INFO[lang].bcp47, {
      dateStyle: "medium",
      timeStyle: "short",
    });
    return (value: string | Date) => format.format(typeof value === "string" ? new Date(value) : value);
  }, [lang]);
}
