import { describe, expect, it } from "vitest";
import { ERROR_CODES, errorMessageKey } from "../errors.ts";
import { LANGUAGES } from "../languages.ts";
import { catalogs, flattenKeys, hasKey, NAMESPACES, translate } from "./index.ts";

/**
 * The catalogs are the contract DESIGN.md section 4 sets: every user-facing text in all 8 languages,
 * a missing key being a test failure rather than an English fallback.
 */
type Tree = { [key: string]: string | Tree };

/** `namespace.key` → text, for one language. */
function flatten(lang: (typeof LANGUAGES)[number]): Map<string, string> {
  const out = new Map<string, string>();
  for (const ns of NAMESPACES) {
    const tree = catalogs[lang][ns] as unknown as Tree;
    for (const key of flattenKeys(tree)) {
      out.set(`${ns}.${key}`, translate(lang, `${ns}.${key}`));
    }
  }
  return out;
}

const raw = (lang: (typeof LANGUAGES)[number], key: string): unknown =>
  key
    .split(".")
    .reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], catalogs[lang]);

const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();

const english = flatten("en");
const others = LANGUAGES.filter((l) => l !== "en");

describe("i18n catalogs", () => {
  it("has all 8 languages and the same namespaces in each", () => {
    expect(Object.keys(catalogs).sort()).toEqual([...LANGUAGES].sort());
    for (const lang of LANGUAGES) {
      expect(Object.keys(catalogs[lang]).sort(), lang).toEqual([...NAMESPACES].sort());
    }
  });

  describe.each(LANGUAGES)("%s", (lang) => {
    it.each(NAMESPACES)("has exactly the keys of en in %s", (ns) => {
      const keys = flattenKeys(catalogs[lang][ns] as unknown as Tree).sort();
      expect(keys).toEqual(flattenKeys(catalogs.en[ns] as unknown as Tree).sort());
    });

    it("has no empty or non-string texts", () => {
      const bad = [...english.keys()].filter((key) => {
        const value = raw(lang, key);
        return value !== undefined && (typeof value !== "string" || value.trim() === "");
      });
      expect(bad).toEqual([]);
    });

    it("uses exactly the {{placeholders}} of the English text", () => {
      const mismatched = [...english.entries()]
        .filter(([key]) => typeof raw(lang, key) === "string")
        .filter(([key, en]) => placeholders(raw(lang, key) as string).join() !== placeholders(en).join())
        .map(([key]) => key);
      expect(mismatched).toEqual([]);
    });
  });

  it("has an errors.<CODE> text for every error code, in every language", () => {
    const missing = Object.keys(ERROR_CODES).flatMap((code) =>
      hasKey(errorMessageKey(code as keyof typeof ERROR_CODES)) ? [] : [code],
    );
    expect(missing).toEqual([]);
    // And no text for a code that no longer exists.
    const orphans = flattenKeys(catalogs.en.errors as unknown as Tree).filter(
      (k) => !Object.hasOwn(ERROR_CODES, k),
    );
    expect(orphans).toEqual([]);
  });

  it.each(others)("%s is translated: at least 60% of its texts differ from English", (lang) => {
    const texts = [...english.entries()];
    const differ = texts.filter(([key, en]) => raw(lang, key) !== undefined && raw(lang, key) !== en).length;
    const same = texts.filter(([key, en]) => raw(lang, key) === en).map(([key]) => key);
    expect(differ / texts.length, `texts still equal to English: ${same.join(", ")}`).toBeGreaterThanOrEqual(
      0.6,
    );
  });
});
