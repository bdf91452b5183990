import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { COMPILED_NODE_OPTIONS, compiledNodeOptions, nodeArgs, SERVER_NODE_OPTIONS } from "./compiled.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const read = (file: string) => readFileSync(`${ROOT}${file}`, "utf8");

describe("compiled processes' node options", () => {
  it("give the servers their own options and the short commands only the common ones", () => {
    expect(compiledNodeOptions("apps/api/dist/server.js")).toEqual([
      ...COMPILED_NODE_OPTIONS,
      ...SERVER_NODE_OPTIONS,
    ]);
    expect(compiledNodeOptions("apps/worker/dist/main.js")).toEqual([
      ...COMPILED_NODE_OPTIONS,
      ...SERVER_NODE_OPTIONS,
    ]);
    expect(compiledNodeOptions("apps/api/dist/cli/admin.js")).toEqual(COMPILED_NODE_OPTIONS);
    expect(compiledNodeOptions("apps/api/dist/cli/setup.js")).toEqual(COMPILED_NODE_OPTIONS);
    expect(nodeArgs("api", { compiled: false })).not.toContain(SERVER_NODE_OPTIONS[0]);
  });

  it("are the image's: its NODE_OPTIONS, and the servers' commands in the Dockerfile and docker-compose", () => {
    const dockerfile = read("Dockerfile");
    expect(dockerfile).toContain(`ENV NODE_OPTIONS="${COMPILED_NODE_OPTIONS.join(" ")}"`);
    const serverStart = dockerfile.split("\n").find((line) => line.includes("apps/api/dist/server.js"));
    const compose = read("docker-compose.yml").split("\n");
    const commands = [
      serverStart,
      compose.find((line) => line.includes('"apps/api/dist/server.js"')),
      compose.find((line) => line.includes('"apps/worker/dist/main.js"')),
    ];
    for (const command of commands) {
      for (const option of SERVER_NODE_OPTIONS) {
        expect(command).toContain(option);
      }
    }
  });
});
