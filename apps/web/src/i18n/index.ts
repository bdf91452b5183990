import { LANGUAGE_INFO, type Language } from "@northstar/shared/languages";
import i18n from "i18next";
import { initReactI18next } from "react-i18next";
import { languageStore } from "../lib/session.ts";
import type { LanguagePack } from "./languages/pack.ts";

/**
 * One i18next instance over the shared catalogs (the same ones the server answers from). Keys are
 * `<namespace>.<key>`. A missing key is caught by the catalog test, so there is no fallback language.
 *
 * Only the language in use is downloaded: the eight together are a quarter of a megabyte, more
 * than the rest of a page's first load.
 */
const PACKS: Record<Language, () => Promise<{ default: LanguagePack }>> = {
  en: () => import("./languages/en.ts"),
  xby: () => import("./languages/xby.ts"),
  jp: () => import("./languages/jp.ts"),
  hy: () => import("./languages/hy.ts"),
  ty: () => import("./languages/ty.ts"),
  yn: () => import("./languages/yn.ts"),
  zh: () => import("./languages/zh.ts"),
  ft: () => import("./languages/ft.ts"),
};
const loaded = new Map<Language, LanguagePack>();

/**
 * Namespaces that only some pages use, kept out of the texts every page loads: each is fetched, in
 * the language in use, by the page that needs it (`loadNamespace`). Each language's module lists its
 * own (`pages`), so the shell carries no table of all of them.
 */
export type PageNamespace =
  | "admin"
  | "earn"
  | "kyc"
  | "launchpad"
  | "options"
  | "loans"
  | "c2c"
  | "contracts"
  | "proofs"
  | "wallet"
  | "referral"
  | "rewards"
  | "messages"
  | "errors"
  | "fields"
  | "help";
/** The page namespaces asked for so far: a language switch fetches them in the new language too. */
const wanted = new Set<PageNamespace>();

/** "zh/admin" once the Chinese back-office texts are in. */
const added = new Set<string>();

async function addNamespace(lang: Language, ns: PageNamespace): Promise<void> {
  if (added.has(`${lang}/${ns}`)) {
    return;
  }
  const load = (await loadPack(lang)).pages[ns];
  if (!load) {
    throw new Error(`no ${ns} texts for ${lang}`);
  }
  i18n.addResourceBundle(lang, "translation", { [ns]: await load() }, true, false);
  added.add(`${lang}/${ns}`);
}

/** Fetches a page namespace's texts in the language in use (and in later languages chosen). */
export async function loadNamespace(ns: PageNamespace): Promise<void> {
  wanted.add(ns);
  await i18nReady;
  await addNamespace(i18n.language as Language, ns);
}

async function loadPack(lang: Language): Promise<LanguagePack> {
  const pack = loaded.get(lang) ?? (await PACKS[lang]()).default;
  loaded.set(lang, pack);
  return pack;
}

/** The loaded language's pack, for Ant Design's locale and dayjs; English until another is in. */
export function languagePack(lang: Language): LanguagePack | undefined {
  return loaded.get(lang) ?? loaded.get("en");
}

/**
 * Keys a component asked for that the texts did not have at that moment (a page namespace may still
 * have been on its way). `northstarMissingKeys()` in the browser lists those still missing: the
 * browser tests fail a page that shows one.
 */
const missingKeys = new Set<string>();
declare global {
  interface Window {
    northstarMissingKeys?: () => string[];
  }
}
if (typeof window !== "undefined") {
  window.northstarMissingKeys = () => [...missingKeys].filter((key) => !i18n.exists(key)).sort();
}

/** Resolves once the stored language's texts are in: the app renders after it. */
export const i18nReady: Promise<void> = (async () => {
  const lang = languageStore.get();
  const pack = await loadPack(lang);
  await i18n.use(initReactI18next).init({
    resources: { [lang]: { translation: pack.catalog } },
    lng: lang,
    fallbackLng: false,
    interpolation: { escapeValue: false },
    returnNull: false,
    saveMissing: true,
    missingKeyHandler: (_languages, _namespace, key) => {
      if (missingKeys.size < 100) {
        missingKeys.add(key);
      }
    },
    // Namespaces added later (page texts, refusal texts) re-render the components already showing.
    react: { bindI18nStore: "added" },
  });
})();

/**
 * Refusal texts and field names are shown only after something was tried, so they follow the first
 * paint instead of holding it; components re-render when they arrive (`bindI18nStore: "added"`).
 */
const AFTER_FIRST_PAINT: PageNamespace[] = ["errors", "fields"];
void i18nReady
  .then(() => Promise.all(AFTER_FIRST_PAINT.map(loadNamespace)))
  .catch((error: unknown) => {
    console.error("texts failed to load", error);
  });

/** The language asked for last. */
let requested: Language | undefined;

/**
 * Switches once the language's texts are in, so no screen shows keys in between. If they cannot be
 * fetched (offline), the page stays in the language it has.
 */
export function setLanguage(lang: Language): Promise<void> {
  requested = lang;
  return loadPack(lang).then(
    async (pack) => {
      if (requested !== lang) {
        // Chosen again meanwhile: a pack that arrives late must not undo the later choice.
        return;
      }
      if (!i18n.hasResourceBundle(lang, "translation")) {
        i18n.addResourceBundle(lang, "translation", pack.catalog);
      }
      await Promise.all([...wanted].map((ns) => addNamespace(lang, ns)));
      if (requested !== lang) {
        return;
      }
      languageStore.set(lang);
      await i18n.changeLanguage(lang);
      document.documentElement.lang = LANGUAGE_INFO[lang].bcp47;
    },
    (error: unknown) => {
      // The pack could not be fetched (offline, a deploy replaced the chunk): keep the language.
      console.error(`language pack ${lang} failed to load`, error);
    },
  );
}

document.documentElement.lang = LANGUAGE_INFO[languageStore.get()].bcp47;

export default i18n;
