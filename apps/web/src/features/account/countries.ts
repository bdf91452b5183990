import { LANGUAGE_INFO } from "@northstar/shared/languages";
import { getCountries, getCountryCallingCode } from "libphonenumber-js";
import { useMemo } from "react";
import { useLanguage } from "../../lib/session.ts";

export interface Country {
  /** ISO 3166-1 alpha-2. */
  code: string;
  /** The country's name in the interface language. */
  name: string;
  /** The international calling code, digits only. */
  callingCode: string;
}

function regionNames(bcp47: string): (code: string) => string {
  let names: Intl.DisplayNames | undefined;
  try {
    names = new Intl.DisplayNames([bcp47], { type: "region" });
  } catch {
    names = undefined;
  }
  return (code) => {
    try {
      return names?.of(code) ?? code;
    } catch {
      return code;
    }
  };
}

/** Every country the phone library knows, with its calling code, named and sorted in the current language. */
export function useCountries(): Country[] {
  const lang = useLanguage();
  return useMemo(() => {
    const bcp47 = LANGUAGE_INFO[lang].bcp47;
    const nameOf = regionNames(bcp47);
    const collator = new Intl.Collator(bcp47);
    return getCountries()
      .map((code) => ({ code, name: nameOf(code), callingCode: String(getCountryCallingCode(code)) }))
      .sort((a, b) => collator.compare(a.name, b.name));
  }, [lang]);
}

/** A country's name in the current language (nationality is stored as its ISO code). */
export function useCountryName(): (code: string) => string {
  const lang = useLanguage();
  return useMemo(() => regionNames(LANGUAGE_INFO[lang].bcp47), [lang]);
}
