import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./platform.ts";

/** Builds the web app once, as a user would get it from `pnpm start`. */
export default function setup(): void {
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
