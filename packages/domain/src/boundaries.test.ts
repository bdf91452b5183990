import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

// The module boundaries of docs/architecture.md, as the lint stage checks them with dependency-cruiser.
const repo = fileURLToPath(new URL("../../../", import.meta.url));
const CONFIG = ".dependency-cruiser.cjs";
const require = createRequire(import.meta.url);
const depcruiseBin = join(repo, "node_modules/dependency-cruiser/bin/dependency-cruise.mjs");

interface Violation {
  from: string;
  to: string;
  rule: { name: string };
}

function cruise(cwd: string, paths: string[]): Violation[] {
  const run = spawnSync(
    process.execPath,
    [depcruiseBin, ...paths, "--config", CONFIG, "--output-type", "json"],
    { cwd, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 },
  );
  if (!run.stdout) {
    throw new Error(`dependency-cruiser did not answer: ${run.stderr}`);
  }
  return (JSON.parse(run.stdout) as { summary: { violations: Violation[] } }).summary.violations;
}

const brief = (violations: Violation[]) => violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`);

describe("module boundaries", () => {
  const fixture = mkdtempSync(join(tmpdir(), "boundaries-"));
  afterAll(() => rmSync(fixture, { recursive: true, force: true }));

  it("finds no violation in the real tree", () => {
    const violations = cruise(repo, [
      "packages/domain/src",
      "apps/api/src",
      "apps/worker/src",
      "bench/src",
      "e2e/src",
    ]);
    expect(brief(violations)).toEqual([]);
  }, 120_000);

  it("catches deep, upward, circular and unpublished imports in a small tree", () => {
    // The real rules and the real package exports, over a tree made for the purpose.
    copyFileSync(join(repo, CONFIG), join(fixture, CONFIG));
    copyFileSync(join(repo, "tsconfig.base.json"), join(fixture, "tsconfig.base.json"));
    const files: Record<string, string> = {
      "packages/domain/package.json": readFileSync(join(repo, "packages/domain/package.json"), "utf8"),
      "packages/domain/src/errors.ts": "export const E = 1;\n",
      "packages/domain/src/ledger/index.ts": 'export * from "./post-entry.ts";\n',
      "packages/domain/src/ledger/post-entry.ts":
        'import { E } from "../errors.ts";\nexport const post = E;\n',
      "packages/domain/src/identity/index.ts": 'export * from "./accounts.ts";\n',
      // Allowed: a higher module through a lower one's face.
      "packages/domain/src/identity/accounts.ts":
        'import { post } from "../ledger/index.ts";\nexport const user = post;\n',
      // A deep import of a table file, and one that reaches up the ladder.
      "packages/domain/src/ledger/reach-up.ts":
        'import { user } from "../identity/accounts.ts";\nexport const x = user;\n',
      // A circle inside one module.
      "packages/domain/src/identity/a.ts": 'import { b } from "./b.ts";\nexport const a = () => b;\n',
      "packages/domain/src/identity/b.ts": 'import { a } from "./a.ts";\nexport const b = () => a;\n',
      // An app reaching past the published exports, and a published face it may use.
      "apps/api/src/uses-inner-file.ts":
        'import { post } from "../../../packages/domain/src/ledger/post-entry.ts";\nexport const y = post;\n',
      "apps/api/src/uses-face.ts":
        'import { post } from "../../../packages/domain/src/ledger/index.ts";\nexport const z = post;\n',
    };
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(fixture, path)), { recursive: true });
      writeFileSync(join(fixture, path), text);
    }
    const found = brief(cruise(fixture, ["packages/domain/src", "apps/api/src"]));
    const ledger = "packages/domain/src/ledger";
    const identity = "packages/domain/src/identity";
    expect(found).toEqual(
      expect.arrayContaining([
        `domain-deep-import: ${ledger}/reach-up.ts → ${identity}/accounts.ts`,
        `domain-ladder-ledger: ${ledger}/reach-up.ts → ${identity}/accounts.ts`,
        `no-circular: ${identity}/a.ts → ${identity}/b.ts`,
        `apps-use-published-exports: apps/api/src/uses-inner-file.ts → ${ledger}/post-entry.ts`,
      ]),
    );
    expect(found.filter((line) => line.includes("accounts.ts → ") || line.includes("uses-face.ts"))).toEqual(
      [],
    );
  }, 120_000);

  it("writes the ladder down in docs/architecture.md in the order the rules enforce", () => {
    const config = require(join(repo, CONFIG)) as { forbidden: { name: string }[] };
    const enforced = config.forbidden
      .map((rule) => /^domain-ladder-(.+)$/.exec(rule.name)?.[1])
      .filter((name): name is string => name !== undefined);
    const doc = readFileSync(join(repo, "docs/architecture.md"), "utf8");
    const written = [...doc.matchAll(/^\d+\. `([a-z0-9-]+)`/gm)].map((m) => m[1]);
    // The top rung has nothing above it, so no rule of its own.
    expect(written.slice(0, enforced.length)).toEqual(enforced);
    expect(written).toHaveLength(enforced.length + 1);
  });
});
