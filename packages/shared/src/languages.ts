/** Interface languages, keyed as the legacy clients send them in `lang`. */
export const LANGUAGES = ["en", "xby", "jp", "hy", "ty", "yn", "zh", "ft"] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = "en";

/** Native names for the language switcher, and the BCP 47 tag for `<html lang>` and Intl. */
export const LANGUAGE_INFO: Record<Language, { nativeName: string; bcp47: string }> = {
  en: { nativeName: "English", bcp47: "en" },
  xby: { nativeName: "Español", bcp47: "es" },
  jp: { nativeName: "日本語", bcp47: "ja" },
  hy: { nativeName: "한국어", bcp47: "ko" },
  ty: { nativeName: "ไทย", bcp47: "th" },
  yn: { nativeName: "Tiếng Việt", bcp47: "vi" },
  zh: { nativeName: "简体中文", bcp47: "zh-CN" },
  ft: { nativeName: "繁體中文", bcp47: "zh-TW" },
};

export function isLanguage(value: unknown): value is Language {
  return typeof value === "string" && (LANGUAGES as readonly string[]).includes(value);
}

/** Unknown or missing `lang` falls back to English rather than refusing the call. */
export function toLanguage(value: unknown): Language {
  return isLanguage(value) ? value : DEFAULT_LANGUAGE;
}
