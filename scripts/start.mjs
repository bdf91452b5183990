// `pnpm start`: builds the web app if needed, prepares the database, then runs the API (which also
// serves the web app) and the worker on one port, restarting neither; Ctrl-C stops both.
import { spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

const run = (cmd, args) => {
  const r = spawnSync(cmd, args, { stdio: "inherit" });
  if (r.status !== 0) {
    process.exit(r.status ?? 1);
  }
};

if (!existsSync("apps/web/dist/index.html") || process.argv.includes("--build")) {
  run("pnpm", ["--filter", "@northstar/web", "build"]);
}
// Node runs the TypeScript sources through tsx, so signals reach the servers directly.
run(process.execPath, ["--import", "tsx", "apps/api/src/cli/setup.ts"]);

const children = [
  spawn(process.execPath, ["--import", "tsx", "apps/api/src/server.ts"], { stdio: "inherit" }),
  spawn(process.execPath, ["--import", "tsx", "apps/worker/src/main.ts"], { stdio: "inherit" }),
];
let stopping = false;
const stop = (code) => {
  if (stopping) {
    return;
  }
  stopping = true;
  for (const child of children) {
    child.kill("SIGTERM");
  }
  setTimeout(() => process.exit(code), 5000).unref();
};
for (const child of children) {
  child.on("exit", (code) => stop(code ?? 1));
}
process.on("SIGINT", () => stop(0));
process.on("SIGTERM", () => stop(0));
console.log(`Northstar is starting on http://localhost:${process.env.PORT ?? 3000}`);
