import { COUNTRY_CODES } from "@northstar/shared/contracts/common";
import { LANGUAGE_INFO, type Language } from "@northstar/shared/languages";
import { type CountryCode, getCountryCallingCode } from "libphonenumber-js";
import { useMemo } from "react";
import { useLanguage } from "../../lib/session.ts";

export interface Country {
  code: string;
  name: string;
  english: string;
  callingCode: string;
}

const countryCache = new Map<string, Country[]>();

function regionName(names: Intl.DisplayNames, code: string): string {
  try {
    return names.of(code) ?? code;
  } catch {
    return code;
  }
}

/** Every country the phone library knows, named in `bcp47` and sorted in that language's order. */
function countriesIn(bcp47: string): Country[] {
  const cached = countryCache.get(bcp47);
  if (cached) {
    return cached;
  }
  const names = new Intl.DisplayNames([bcp47], { type: "region" });
  const english = new Intl.DisplayNames(["en"], { type: "region" });
  const collator = new Intl.Collator(bcp47);
  const list = COUNTRY_CODES.map((code) => ({
    code,
    name: regionName(names, code),
    english: regionName(english, code),
    callingCode: getCountryCallingCode(code as CountryCode),
  })).sort((a, b) => collator.compare(a.name, b.name));
  countryCache.set(bcp47, list);
  return list;
}

/** A country's name in the current language (nationality is stored as its ISO code). */
export function useCountryName(): (code: string) => string {
  const lang = useLanguage();
  return useMemo(() => {
    const names = new Intl.DisplayNames([LANGUAGE_INFO[lang].bcp47], { type: "region" });
    return (code: string) => regionName(names, code);
  }, [lang]);
}

/** The countries in the current interface language. */
export function useCountries(): Country[] {
  const lang = useLanguage();
  return useMemo(() => countriesIn(LANGUAGE_INFO[lang].bcp47), [lang]);
}

/** The calling code of an ISO region ("US" → "1"), or "" when the region is unknown. */
export function callingCodeOf(region: string | undefined): string {
  if (!region || !COUNTRY_CODES.includes(region)) {
    return "";
  }
  return getCountryCallingCode(region as CountryCode);
}

const LANGUAGE_REGION: Record<Language, string> = {
  en: "US",
  xby: "ES",
  jp: "JP",
  hy: "KR",
  ty: "TH",
  yn: "VN",
  zh: "CN",
  ft: "TW",
};

/**
 * A sensible default phone region: the first browser locale that names a region ("en-GB" → GB),
 * else the region most associated with the interface language.
 */
export function guessRegion(lang: Language): string {
  const tags = typeof navigator === "undefined" ? [] : (navigator.languages ?? [navigator.language]);
  for (const tag of tags) {
    try {
      const region = new Intl.Locale(tag).region;
      if (region && COUNTRY_CODES.includes(region)) {
        return region;
      }
    } catch {
      // An unparsable locale tag: try the next one.
    }
  }
  return LANGUAGE_REGION[lang];
}
