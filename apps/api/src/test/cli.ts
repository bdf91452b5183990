import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { compiledEntry } from "../../../../packages/domain/src/test-support/index.ts";
import type { Harness } from "./harness.ts";

const ROOT = fileURLToPath(new URL("../../../../", import.meta.url));

/**
 * Runs `pnpm admin <args>` as an operator would (compiled, as `pnpm start` runs, from the repository root) against
 * this test's database and Redis prefix. Resolves with the exit code and the output, never rejects.
 */
export function runAdminCli(
  h: Harness,
  ...args: string[]
): Promise<{ code: number; stdout: string; stderr: string }> {
  return runAdminCliWithEnv(h, {}, ...args);
}

/** The same, with more variables in the command's environment (a chain's node, the operator's keys). */
export function runAdminCliWithEnv(
  h: Harness,
  extra: Record<string, string>,
  ...args: string[]
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [...compiledEntry("apps/api/src/cli/admin.ts"), ...args],
      {
        cwd: ROOT,
        timeout: 60_000,
        env: {
          ...process.env,
          DATABASE_URL: h.databaseUrl,
          REDIS_URL: process.env.REDIS_URL ?? "redis://127.0.0.1:6379",
          REDIS_PREFIX: h.redisPrefix,
          LOG_LEVEL: "silent",
          ...extra,
        },
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : -1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}
