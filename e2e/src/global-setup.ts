import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./platform.ts";

/** Builds the web app and compiles the server once, as a user would get them from `pnpm start`. */
export default function setup(): void {
  // The server compiles in seconds, so it always does: a run never starts code older than the sources.
  const server = spawnSync(process.execPath, ["scripts/build-server.mjs"], { cwd: ROOT, stdio: "inherit" });
  if (server.status !== 0) {
    throw new Error("server build failed");
  }
  if (process.env.E2E_SKIP_BUILD === "1" && existsSync(join(ROOT, "apps/web/dist/index.html"))) {
    return;
  }
  // vitest sets NODE_ENV=test, under which Vite bundles React's development build (four times the
  // size, and slower): build what `pnpm start` serves.
  const result = spawnSync("pnpm", ["--filter", "@northstar/web", "build"], {
    cwd: ROOT,
    stdio: "inherit",
    env: { ...process.env, NODE_ENV: "production" },
  });
  if (result.status !== 0) {
    throw new Error("web build failed");
  }
}
