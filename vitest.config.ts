import { defineConfig } from "vitest/config";

/**
 * Unit tests (`*.test.ts`) need nothing running. Integration tests (`*.int.test.ts`) talk to the real
 * PostgreSQL and Redis: a global setup migrates a template database once, and each test file clones
 * its own fresh database from it, so files run in parallel without sharing state.
 *
 * Integration files share their worker process (`isolate: false`): loading the domain and the API
 * afresh for each of 114 files cost about a third of the stage's CPU. A file's world is its own
 * database, Redis prefix and app; module-level settings a file changes (environment variables, the
 * hot-wallet route) it puts back, and the setup files give every file the same domain (see
 * setup/test/registrations.setup.ts).
 */
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "unit",
          // `pnpm test` runs unit tests beside the typecheck on two cores: loading the real ccxt package or
          // rolling up a year of candles can take a few seconds then.
          testTimeout: 20_000,
          include: [
            "packages/**/src/**/*.test.ts",
            "apps/**/src/**/*.test.ts",
            "apps/*/scripts/**/*.test.ts",
            "scripts/**/*.test.ts",
          ],
          exclude: ["**/*.int.test.ts", "**/node_modules/**"],
        },
      },
      {
        test: {
          name: "integration",
          include: ["packages/**/src/**/*.int.test.ts", "apps/**/src/**/*.int.test.ts"],
          exclude: ["**/node_modules/**"],
          globalSetup: ["packages/domain/src/test-support/global-setup.ts"],
          setupFiles: [
            "packages/domain/src/identity/test/secret-cost.setup.ts",
            "packages/domain/src/setup/test/registrations.setup.ts",
          ],
          // Failure bounds only: a passing test never waits for them. The suite runs beside the browser
          // tests on two cores, where a loaded minute stretches a test's usual seconds many times.
          testTimeout: 90_000,
          hookTimeout: 120_000,
          pool: "forks",
          isolate: false,
        },
      },
    ],
  },
});
