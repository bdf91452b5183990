/**
 * Smoke mode (`pnpm bench all --smoke`, run by the test suite): every benchmark runs its whole path,
 * with its own correctness checks, at a size that takes seconds, so a benchmark cannot rot unseen.
 * Its figures mean nothing and are written outside bench/results/.
 */
export const SMOKE = process.env.BENCH_SMOKE === "1";

/** The full-size value, or the smoke-size one in smoke mode. */
export const sized = <T>(full: T, smoke: T): T => (SMOKE ? smoke : full);
