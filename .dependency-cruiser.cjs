// Module boundaries of packages/domain, checked in the lint stage (`pnpm lint:deps`).
// The ladder is written out in docs/architecture.md; a unit test keeps the two in step.
const { readFileSync } = require("node:fs");
const { join } = require("node:path");

const SRC = "^packages/domain/src/";

/** Lowest first: a module may import only modules listed before it. */
const LADDER = [
  "db",
  "state",
  "leases",
  "notifications",
  "test-support",
  "currencies",
  "audit",
  "policy",
  "content",
  "uploads",
  "idempotency",
  "ledger",
  "identity",
  "messages",
  "kyc",
  "markets",
  "funding",
  "chain",
  "spot",
  "apikeys",
  "options",
  "earn",
  "launchpad",
  "loans",
  "c2c",
  "contracts",
  "proofs",
  "referral",
  "rewards",
  "support",
  "admin",
  "metrics",
  "setup",
];

// Tests stand outside the ladder: they may read their own module's inner files and use the seed and
// the test helpers, and nothing imports them.
const TEST_FILE = "(\\.test\\.ts$|/test/|^e2e/)";

// Files that drizzle-kit reads to list every table; nothing imports them at run time.
const SCHEMA_LIST = `${SRC}db/schema\\.ts$`;

const escapeRegex = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

// What apps, bench and browser tests may reach: the package's published exports (their sources; the
// `northstar-compiled` condition names the compiled file of the same module).
const exportsMap = JSON.parse(readFileSync(join(__dirname, "packages/domain/package.json"), "utf8")).exports;
const PUBLISHED = Object.values(exportsMap).map(
  (target) =>
    `^packages/domain/${escapeRegex((typeof target === "string" ? target : target.default).slice(2))}$`,
);

// Test helpers are not published: tests and benches import them by path.
const TEST_HELPERS = [
  `${SRC}test-support/index\\.ts$`,
  `${SRC}test-support/`,
  `${SRC}spot/testing\\.ts$`,
  `${SRC}spot/workload\\.ts$`,
  `${SRC}loans/test/`,
  `${SRC}identity/test/`,
  `${SRC}contracts/testing\\.ts$`,
  `${SRC}c2c/testing\\.ts$`,
];

const upward = LADDER.map((name, i) => ({
  name: `domain-ladder-${name}`,
  comment: `${name} imports a module above it in the ladder (docs/architecture.md)`,
  severity: "error",
  from: { path: `${SRC}${name}/`, pathNot: [TEST_FILE, SCHEMA_LIST] },
  to: { path: `${SRC}(${LADDER.slice(i + 1).join("|")})/` },
})).filter((rule) => !rule.to.path.endsWith("()/"));

module.exports = {
  forbidden: [
    {
      name: "domain-deep-import",
      comment: "another domain module is reached only through its index.ts (db: client.ts and migrate.ts)",
      severity: "error",
      from: { path: `${SRC}([^/]+)/`, pathNot: [SCHEMA_LIST] },
      to: {
        path: `${SRC}[^/]+/`,
        // Test helpers are reached by path; the rule below keeps them out of the product.
        pathNot: [`${SRC}$1/`, `${SRC}[^/]+/index\\.ts$`, `${SRC}db/(client|migrate)\\.ts$`, ...TEST_HELPERS],
      },
    },
    {
      name: "domain-unknown-module",
      comment: "every folder of packages/domain/src has its place in the ladder",
      severity: "error",
      from: { path: `${SRC}[^/]+/` },
      to: { path: SRC, pathNot: [`${SRC}(${LADDER.join("|")})/`, `${SRC}(errors|env)\\.ts$`] },
    },
    {
      name: "domain-kernel",
      comment: "errors.ts and env.ts sit below every module",
      severity: "error",
      from: { path: `${SRC}(errors|env)\\.ts$` },
      to: { path: `${SRC}[^/]+/` },
    },
    ...upward,
    {
      name: "domain-never-imports-apps",
      severity: "error",
      from: { path: "^packages/" },
      to: { path: "^(apps|bench|e2e)/" },
    },
    {
      name: "apps-use-published-exports",
      comment: "apps and bench reach the domain only through @northstar/domain/<module>",
      severity: "error",
      from: { path: "^(apps|bench|e2e)/", pathNot: [TEST_FILE, "^bench/"] },
      to: { path: SRC, pathNot: PUBLISHED },
    },
    {
      name: "tests-use-published-exports-or-helpers",
      comment: "tests and benches may also import the test helpers by path",
      severity: "error",
      from: { path: [`^(apps|e2e)/.*${TEST_FILE}`, "^e2e/", "^bench/"] },
      to: { path: SRC, pathNot: [...PUBLISHED, ...TEST_HELPERS] },
    },
    {
      name: "test-helpers-stay-out-of-the-product",
      comment: "test-support, spot/testing and spot/workload are for tests and benches only",
      severity: "error",
      from: {
        pathNot: [
          TEST_FILE,
          "^bench/",
          `${SRC}test-support/`,
          `${SRC}spot/(testing|workload)\\.ts$`,
          `${SRC}contracts/testing\\.ts$`,
          `${SRC}c2c/testing\\.ts$`,
        ],
      },
      to: { path: TEST_HELPERS },
    },
    {
      name: "no-circular",
      severity: "error",
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    includeOnly: "^(packages/domain|apps/api|apps/worker|apps/web/src|bench|e2e)/",
    exclude: { path: ["node_modules", "/dist/", "/migrations/"] },
    doNotFollow: { path: "node_modules" },
    // Type-only imports are dependencies too: a module's types are part of its face.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.base.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      extensions: [".ts", ".tsx", ".js", ".mjs", ".json"],
    },
  },
};
