import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { compiledNodeOptions } from "../../../../scripts/compiled.mjs";

const ROOT = fileURLToPath(new URL("../../../..", import.meta.url));

/**
 * The node arguments that start a server entry (`apps/worker/src/main.ts`, `apps/api/src/cli/admin.ts`,
 * …) as production starts it: its compiled file under plain node, with production's node options
 * (scripts/compiled.mjs). The integration project's global setup compiles the server first. A
 * process started through tsx instead spends seconds of CPU compiling the sources at every start,
 * which on a busy machine turned a CLI call or a worker's start into a timeout.
 */
export function compiledEntry(source: string): string[] {
  const compiled = source.replace(/^(apps|packages)\/([^/]+)\/src\//, "$1/$2/dist/").replace(/\.ts$/, ".js");
  if (compiled === source || !existsSync(`${ROOT}${compiled}`)) {
    throw new Error(`${compiled} is missing: compile the server (node scripts/build-server.mjs)`);
  }
  return [...compiledNodeOptions(compiled), `${ROOT}${compiled}`];
}
