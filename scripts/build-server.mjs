// Compiles the server side (packages/shared, packages/domain, apps/api, apps/worker) to JavaScript
// that plain `node` runs: each package's `src/**/*.ts` becomes `dist/**/*.js` beside it, file for
// file, with source maps. Nothing is bundled: a package's files keep importing their dependencies from
// the package's own node_modules, and other workspace packages through their exports, which name the
// compiled file under the `northstar-compiled` condition (`node --conditions=northstar-compiled`, see
// scripts/compiled.mjs). `dist/` mirrors `src/` at the same depth, so paths a module computes from its
// own location (the domain's migrations folder, the repository's var/) are the same compiled or not.
// JSON files the sources import (the i18n catalogs, the seeded content) are inlined into the module
// that imports them.
// Tests, test helpers and their fixtures are left out.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
export const SERVER_PACKAGES = ["packages/shared", "packages/domain", "apps/api", "apps/worker"];

/** Left out of the compiled output: tests, test helpers and recorded fixtures. */
const isTestOnly = (path) => /\.test\.ts$/.test(path) || /(^|\/)(test|test-support|fixtures)\//.test(path);

/**
 * Every import stays an import: relative ones are pointed at the compiled `.js` file, bare ones
 * (node modules, other workspace packages) are left to Node's resolution at run time.
 */
const keepImports = {
  name: "keep-imports",
  setup(b) {
    b.onResolve({ filter: /.*/ }, (args) => {
      if (args.kind === "entry-point") {
        return undefined;
      }
      if (args.path.endsWith(".json")) {
        // Inlined into the importing module (JSON modules need import attributes at run time).
        return undefined;
      }
      if (args.path.startsWith(".")) {
        return { path: args.path.replace(/\.ts$/, ".js"), external: true };
      }
      return { path: args.path, external: true };
    });
  },
};

async function compilePackage(pkg) {
  const src = join(ROOT, pkg, "src");
  const out = join(ROOT, pkg, "dist");
  rmSync(out, { recursive: true, force: true });
  const files = readdirSync(src, { recursive: true })
    .map((f) => f.toString().replaceAll("\\", "/"))
    .filter((f) => !isTestOnly(f));
  const entryPoints = files.filter((f) => f.endsWith(".ts")).map((f) => join(src, f));
  await build({
    entryPoints,
    outdir: out,
    outbase: src,
    bundle: true,
    plugins: [keepImports],
    platform: "node",
    format: "esm",
    target: "node20",
    sourcemap: true,
    logLevel: "warning",
  });
  return entryPoints.length;
}

/** What the compiled output is made from: this script and every source file of the server packages. */
function sourceHash() {
  const hash = createHash("sha256").update(readFileSync(fileURLToPath(import.meta.url)));
  for (const pkg of SERVER_PACKAGES) {
    const src = join(ROOT, pkg, "src");
    const files = readdirSync(src, { recursive: true })
      .map((f) => f.toString().replaceAll("\\", "/"))
      .filter((f) => !isTestOnly(f) && statSync(join(src, f)).isFile())
      .sort();
    for (const f of files) {
      hash.update(`${pkg}/${f}\0`).update(readFileSync(join(src, f)));
    }
  }
  return hash.digest("hex");
}

const stampOf = (pkg) => join(ROOT, pkg, "dist", ".source-hash");
const LOCK = join(ROOT, "node_modules", ".server-build.lock");

/**
 * One build at a time (the browser tests and the compiled-start test may ask at once, and a build
 * empties `dist/` first): the lock is a directory, taken by creating it; one left by a killed build
 * is taken over after two minutes.
 */
async function withLock(run) {
  const deadline = Date.now() + 180_000;
  for (;;) {
    try {
      mkdirSync(LOCK);
      break;
    } catch (error) {
      if (error.code !== "EEXIST") {
        throw error;
      }
      const age = Date.now() - (statSync(LOCK, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > 120_000) {
        rmSync(LOCK, { recursive: true, force: true });
      } else if (Date.now() > deadline) {
        throw new Error(`another server build holds ${LOCK}`);
      } else {
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
  }
  try {
    return await run();
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}

await withLock(async () => {
  const started = Date.now();
  const hash = sourceHash();
  // Output already made from these very sources is left alone (`--force` compiles anyway): a process
  // started from it keeps running while another build is asked for.
  const fresh = SERVER_PACKAGES.every(
    (pkg) => existsSync(stampOf(pkg)) && readFileSync(stampOf(pkg), "utf8") === hash,
  );
  if (fresh && !process.argv.includes("--force")) {
    console.log(`compiled server is up to date with its sources (checked in ${Date.now() - started} ms)`);
    return;
  }
  let count = 0;
  for (const pkg of SERVER_PACKAGES) {
    count += await compilePackage(pkg);
    writeFileSync(stampOf(pkg), hash);
  }
  console.log(`compiled ${count} files of ${SERVER_PACKAGES.join(", ")} in ${Date.now() - started} ms`);
});
