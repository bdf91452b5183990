import { formatMoney, numberMarks } from "@northstar/shared/format";
import { LANGUAGE_INFO } from "@northstar/shared/languages";
import { useMemo } from "react";
import { useLanguage } from "../../lib/session.ts";

/** A USDT amount through the shared formatter, with the interface language's marks. */
export function useFormatUsdt(): (value: string) => string {
  const lang = useLanguage();
  return useMemo(() => {
    const marks = numberMarks(LANGUAGE_INFO[lang].bcp47);
    return (value: string) => formatMoney(value, { decimals: 2, unit: "USDT", marks });
  }, [lang]);
}
