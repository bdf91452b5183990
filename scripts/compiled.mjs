// How the platform's processes are started: the compiled JavaScript under plain `node` (`pnpm start`,
// the image), or the TypeScript sources through tsx (`pnpm dev`). `pnpm build` writes the compiled
// files (scripts/build-server.mjs); the workspace packages' exports name them under the
// `northstar-compiled` condition, which these node options turn on.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** Node options of a compiled process: no loader, stack traces mapped back to the TypeScript. */
export const COMPILED_NODE_OPTIONS = ["--enable-source-maps", "--conditions=northstar-compiled"];

/**
 * Added for the long-running servers (API, worker): a young generation of 32 MB per half instead of
 * the default 16, so a request's short-lived objects (parsed bodies, query results, answers) die young
 * instead of being copied into the old generation. In CPU profiles of `pnpm bench spot-api` garbage
 * collection fell from 10.4% to 6.6% of the API's busy time. Not for short commands: a setup or
 * operator command then starts with about 8% more CPU and 25 MB more memory. The image's API and
 * worker commands (Dockerfile, docker-compose.yml) pass the same option.
 */
export const SERVER_NODE_OPTIONS = ["--max-semi-space-size=32"];

const ENTRIES = {
  setup: { source: "apps/api/src/cli/setup.ts", compiled: "apps/api/dist/cli/setup.js", server: false },
  api: { source: "apps/api/src/server.ts", compiled: "apps/api/dist/server.js", server: true },
  worker: { source: "apps/worker/src/main.ts", compiled: "apps/worker/dist/main.js", server: true },
  admin: { source: "apps/api/src/cli/admin.ts", compiled: "apps/api/dist/cli/admin.js", server: false },
};

/** The node options of the compiled file `compiled` (a path from the repository's root). */
export function compiledNodeOptions(compiled) {
  const server = Object.values(ENTRIES).some((entry) => entry.server && entry.compiled === compiled);
  return server ? [...COMPILED_NODE_OPTIONS, ...SERVER_NODE_OPTIONS] : COMPILED_NODE_OPTIONS;
}

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
  return [...compiledNodeOptions(entry.compiled), file];
}
