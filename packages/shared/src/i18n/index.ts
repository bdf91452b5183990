import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from "../languages.ts";
import { catalogs } from "./catalogs.ts";

/**
 * Translation catalogs for the 8 languages, one JSON file per namespace and language
 * (`<lang>/<namespace>.json`). Keys are `<namespace>.<key>`; values use i18next's `{{name}}`
 * interpolation so the same catalogs serve the server and the web.
 */
export { catalogs };
export const NAMESPACES = Object.keys(catalogs.en) as (keyof (typeof catalogs)["en"])[];
export type Namespace = (typeof NAMESPACES)[number];
export type Catalog = (typeof catalogs)[Language];

type Tree = { [key: string]: string | Tree };

function lookup(tree: Tree, path: string[]): string | undefined {
  let node: string | Tree | undefined = tree;
  for (const part of path) {
    if (node === undefined || typeof node === "string") {
      return undefined;
    }
    node = node[part];
  }
  return typeof node === "string" ? node : undefined;
}

/** True when every language has the key: the server never answers with an English fallback. */
export function hasKey(key: string): boolean {
  return LANGUAGES.every((lang) => lookup(catalogs[lang] as unknown as Tree, key.split(".")) !== undefined);
}

/**
 * Translates `namespace.key` into `lang`, filling `{{param}}` placeholders. A missing key is a bug
 * (a test checks every catalog has every key), so it returns the key itself rather than English.
 */
export function translate(lang: Language, key: string, params: Record<string, string | number> = {}): string {
  const text = lookup(catalogs[lang] as unknown as Tree, key.split("."));
  if (text === undefined) {
    return key;
  }
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) =>
    params[name] === undefined ? `{{${name}}}` : String(params[name]),
  );
}

/** Flattens a catalog into dotted keys, for the completeness test and tooling. */
export function flattenKeys(tree: Tree, prefix = ""): string[] {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === "string" ? [`${prefix}${key}`] : flattenKeys(value, `${prefix}${key}.`),
  );
}

export { DEFAULT_LANGUAGE };
