import { catalogs } from "@northstar/shared/i18n";
import { LANGUAGE_INFO, LANGUAGES, type Language } from "@northstar/shared/languages";
import i18n from "i18next";
import { initReactI18next } from "react-i18next";
import { languageStore } from "../lib/session.ts";

/**
 * One i18next instance over the shared catalogs (the same ones the server answers from). Keys are
 * `<namespace>.<key>`. A missing key is caught by the catalog test, so there is no fallback language.
 */
void i18n.use(initReactI18next).init({
  resources: Object.fromEntries(LANGUAGES.map((lang) => [lang, { translation: catalogs[lang] }])),
  lng: languageStore.get(),
  fallbackLng: false,
  interpolation: { escapeValue: false },
  returnNull: false,
});

export function setLanguage(lang: Language): void {
  languageStore.set(lang);
  void i18n.changeLanguage(lang);
  document.documentElement.lang = LANGUAGE_INFO[lang].bcp47;
}

document.documentElement.lang = LANGUAGE_INFO[languageStore.get()].bcp47;

export default i18n;
