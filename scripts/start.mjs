// `pnpm start`: compiles the server and builds the web app if needed, prepares the database, then runs
// the API (which also serves the web app) and the worker on one port as compiled JavaScript under
// plain node, restarting neither; Ctrl-C stops both. `pnpm dev` (`--dev`) runs the TypeScript sources
// through tsx instead and compiles nothing.
import { spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { nodeArgs } from "./compiled.mjs";

const dev = process.argv.includes("--dev");
const run = (cmd, args) => {
  const r = spawnSync(cmd, args, { stdio: "inherit" });
  if (r.status !== 0) {
    process.exit(r.status ?? 1);
  }
};

if (!existsSync("apps/web/dist/index.html") || process.argv.includes("--build")) {
  run("pnpm", ["--filter", "@northstar/web", "build"]);
}
// The server compiles in seconds: always, so that a start never runs code older than the sources.
if (!dev) {
  run(process.execPath, ["scripts/build-server.mjs"]);
}
// Node runs the servers itself (no wrapper process), so signals reach them directly.
const compiled = !dev;
run(process.execPath, nodeArgs("setup", { compiled }));

const children = [
  spawn(process.execPath, nodeArgs("api", { compiled }), { stdio: "inherit" }),
  spawn(process.execPath, nodeArgs("worker", { compiled }), { stdio: "inherit" }),
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
console.log(
  `Northstar is starting on http://localhost:${process.env.PORT ?? 3000}${dev ? " (sources, tsx)" : ""}`,
);
