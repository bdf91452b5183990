// The JavaScript a first load of each main page transfers, from the built manifest: the entry
// chunk, the page's lazy chunk, and every chunk either imports statically (what the browser fetches
// before the page can render). Prints raw, gzip and brotli bytes per page and exits non-zero when a
// page's brotli size (what the server sends) is over its ceiling (with --strict: over the target).
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

/** The target: compressed JavaScript a first load of a main page may transfer. */
export const BUDGET_BYTES = 250 * 1024;

/** Every first load also fetches the interface language's pack (English unless chosen otherwise). */
const FIRST_LOAD = ["src/i18n/languages/en.ts"];

/**
 * The main pages: the modules each one's route loads (app/pages.tsx), and the ceiling the build is
 * held to: the target itself. The shell (React, router, i18n, API client and the antd parts of the
 * header, menus and feedback) is most of each first load; what a page draws after its first paint
 * (the trade screen's chart, order form and orders panel) loads by dynamic import and is not counted.
 */
export const PAGES = {
  home: { path: "/", modules: [...FIRST_LOAD, "src/features/home/home-page.tsx"], ceiling: 250 * 1024 },
  trade: {
    path: "/currencyTrade",
    modules: [...FIRST_LOAD, "src/features/spot/spot-trade-page.tsx"],
    ceiling: 250 * 1024,
  },
};

/**
 * The JavaScript files a page loads before it renders: the entry and the page's own modules, and
 * every chunk they import statically, transitively. Dynamic imports are not followed: they load
 * only when the code that asks for them runs.
 */
export function pageChunks(manifest, modules) {
  const entries = Object.keys(manifest).filter((key) => manifest[key].isEntry);
  const files = new Set();
  const seen = new Set();
  const visit = (key) => {
    if (seen.has(key)) {
      return;
    }
    const chunk = manifest[key];
    if (!chunk) {
      throw new Error(`the manifest has no chunk for ${key}`);
    }
    seen.add(key);
    if (chunk.file.endsWith(".js")) {
      files.add(chunk.file);
    }
    for (const imported of chunk.imports ?? []) {
      visit(imported);
    }
  };
  for (const key of [...entries, ...modules]) {
    visit(key);
  }
  return [...files].sort();
}

/** Raw, gzip and brotli bytes of files, compressed at the levels the build precompresses with. */
export function measure(dist, files) {
  const total = { raw: 0, gzip: 0, brotli: 0 };
  for (const file of files) {
    const bytes = readFileSync(join(dist, file));
    total.raw += bytes.length;
    total.gzip += gzipSync(bytes, { level: 9 }).length;
    total.brotli += brotliCompressSync(bytes, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
    }).length;
  }
  return total;
}

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;

function main() {
  const folder = process.argv.slice(2).find((arg) => !arg.startsWith("--"));
  const dist = resolve(folder ?? fileURLToPath(new URL("../dist", import.meta.url)));
  const manifest = JSON.parse(readFileSync(join(dist, ".vite/manifest.json"), "utf8"));
  // --strict holds every page to the target itself.
  const strict = process.argv.includes("--strict");
  let over = false;
  for (const [name, page] of Object.entries(PAGES)) {
    const files = pageChunks(manifest, page.modules);
    const size = measure(dist, files);
    const limit = strict ? BUDGET_BYTES : Math.max(page.ceiling, BUDGET_BYTES);
    over ||= size.brotli > limit;
    const target = size.brotli > BUDGET_BYTES ? `over the ${kb(BUDGET_BYTES)} target` : "within target";
    console.log(
      `${name} (${page.path}): ${files.length} JS files, raw ${kb(size.raw)}, gzip ${kb(size.gzip)}, ` +
        `brotli ${kb(size.brotli)}; ${target}; ceiling ${kb(limit)}: ${size.brotli > limit ? "EXCEEDED" : "ok"}`,
    );
  }
  process.exit(over ? 1 : 0);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main();
}
