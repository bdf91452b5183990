// How the platform's processes are started: the compiled JavaScript under plain `node` (`pnpm start`,
// the image), or the TypeScript sources through tsx (`pnpm dev`). `pnpm build` writes the compiled
// files (scripts/build-server.mjs); the workspace packages' exports name them under the
// `northstar-compiled` condition, which these node options turn on.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

/**
 * Node options of a compiled process: no loader, stack traces mapped back to the TypeScript, and a
 * young generation of 32 MB per half instead of the default 16: a request's short-lived objects
 * (parsed bodies, query results, answers) then die young instead of being copied into the old
 * generation, so garbage collection costs less CPU per request (`pnpm bench spot-api`, docs/spot.md).
 * The Dockerfile sets the same options.
 */
export const COMPILED_NODE_OPTIONS = [
  "--enable-source-maps",
  "--conditions=northstar-compiled",
  "--max-semi-space-size=32",
];

const ENTRIES = {
  setup: { source: "apps/api/src/cli/setup.ts", compiled: "apps/api/dist/cli/setup.js" },
  api: { source: "apps/api/src/server.ts", compiled: "apps/api/dist/server.js" },
  worker: { source: "apps/worker/src/main.ts", compiled: "apps/worker/dist/main.js" },
  admin: { source: "apps/api/src/cli/admin.ts", compiled: "apps/api/dist/cli/admin.js" },
};

/**
 * The node arguments that start one process: `compiled` runs `dist/` with plain node (failing when
 * it was not built), otherwise the sources run through tsx. Paths are absolute, so any cwd works.
 */
export function nodeArgs(name, { compiled }) {
  const entry = ENTRIES[name];
  if (!entry) {
    throw new Error(`unknown process ${name}`);
  }
  if (!compiled) {
    return ["--import", "tsx", `${ROOT}${entry.source}`];
  }
  const file = `${ROOT}${entry.compiled}`;
  if (!existsSync(file)) {
    throw new Error(`${entry.compiled} is missing: run \`pnpm build\` first`);
  }
  return [...COMPILED_NODE_OPTIONS, file];
}
