import { existsSync, readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/**
 * A page fetches the texts of the namespaces it lists in pages.tsx; a component it renders that reads
 * another page namespace shows raw keys (`kyc.gates.needPrimary` on the C2C pages). This reads each
 * page's module and every feature file it imports, and checks each `t("<namespace>.…")` is in a
 * namespace the shell always has or one the page fetches.
 */
const APP = dirname(fileURLToPath(import.meta.url));
const pagesSource = readFileSync(resolve(APP, "pages.tsx"), "utf8");
const i18nSource = readFileSync(resolve(APP, "../i18n/index.ts"), "utf8");

/** Namespaces fetched by the page that needs them; every other namespace is in the shell's texts. */
const PAGE_NAMESPACES = new Set(
  [...(i18nSource.match(/export type PageNamespace =([^;]+);/)?.[1] ?? "").matchAll(/"(\w+)"/g)].map(
    (m) => m[1],
  ),
);
/** Fetched after the first paint for every page (i18n/index.ts AFTER_FIRST_PAINT). */
const EVERY_PAGE = new Set(["errors", "fields"]);

function localImports(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file) || !existsSync(file)) {
    return seen;
  }
  seen.add(file);
  const text = readFileSync(file, "utf8");
  for (const m of text.matchAll(/(?:from|import\()\s*"(\.{1,2}\/[^"]+\.tsx?)"/g)) {
    const target = resolve(dirname(file), m[1] as string);
    // Feature files only: lib/ and app/ are the shell, which uses shell namespaces.
    if (target.includes("/features/")) {
      localImports(target, seen);
    }
  }
  return seen;
}

function namespacesUsed(files: Set<string>): Map<string, string> {
  const used = new Map<string, string>();
  for (const file of files) {
    // Every literal key inside a t(…) call, the chosen one of a ternary too: t(a ? "kyc.x" : "kyc.y").
    for (const call of readFileSync(file, "utf8").matchAll(/\bt\(([^()]*)/g)) {
      for (const m of (call[1] as string).matchAll(/[`"](\w+)\.[\w.$]/g)) {
        const ns = m[1] as string;
        if (PAGE_NAMESPACES.has(ns) && !used.has(ns)) {
          used.set(ns, file.slice(file.indexOf("/features/") + 1));
        }
      }
    }
  }
  return used;
}

const pages = [
  ...pagesSource.matchAll(
    /page\(\s*\(\) => import\("(\.\.\/features\/[^"]+)"\),\s*\([^)]*\) => [^,]+,\s*(?:\[([^\]]*)\])?/g,
  ),
].map((m) => ({
  module: m[1] as string,
  namespaces: new Set([...(m[2] ?? "").matchAll(/"(\w+)"/g)].map((n) => n[1] as string)),
}));

describe("pages fetch the texts their components use", () => {
  it("reads the page table", () => {
    expect(pages.length).toBeGreaterThan(50);
    expect(PAGE_NAMESPACES.has("kyc")).toBe(true);
  });

  it.each(pages.map((p) => [p.module, p] as const))("%s", (_module, p) => {
    const used = namespacesUsed(localImports(resolve(APP, p.module)));
    const missing = [...used].filter(([ns]) => !p.namespaces.has(ns) && !EVERY_PAGE.has(ns));
    expect(missing.map(([ns, file]) => `${ns} (in ${file})`)).toEqual([]);
  });
});
