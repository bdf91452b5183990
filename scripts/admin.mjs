// `pnpm admin …`: the operator CLI. With NODE_ENV=production it runs the compiled CLI under plain node
// (`pnpm build` first), as the servers do; otherwise the TypeScript source through tsx, so that a
// developer's CLI is never older than the sources. In the image: `node apps/api/dist/cli/admin.js …`.
import { spawnSync } from "node:child_process";
import { nodeArgs } from "./compiled.mjs";

const compiled = process.env.NODE_ENV === "production";
const r = spawnSync(process.execPath, [...nodeArgs("admin", { compiled }), ...process.argv.slice(2)], {
  stdio: "inherit",
});
process.exit(r.status ?? 1);
