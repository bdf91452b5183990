import { defineConfig } from "vitest/config";

/**
 * Browser tests: each file starts the real platform (API serving the built web, and the worker)
 * on a free port with its own database, and drives Debian's Chromium through playwright-core.
 */
export default defineConfig({
  test: {
    include: ["src/**/*.e2e.test.ts"],
    globalSetup: ["src/global-setup.ts"],
    testTimeout: 90_000,
    hookTimeout: 180_000,
    pool: "forks",
    // Two Chromiums and two platforms at once fit this 2-core machine; more would just queue.
    maxWorkers: 2,
  },
});
