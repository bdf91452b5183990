import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The folder of recorded candles (`<SYMBOL>_<period>.csv`) that the replay and aggregation tests check
 * against: MARKET_DATA_DIR, else `shared/marketdata` beside the repository. The recordings are not
 * part of the repository.
 */
export function marketDataDir(): string {
  const repoRoot = fileURLToPath(new URL("../../../../", import.meta.url));
  return process.env.MARKET_DATA_DIR ?? resolve(repoRoot, "../shared/marketdata");
}

/**
 * The folder, when every recording asked for is in it. Otherwise it throws: a test that quietly
 * skipped without its data would let the suite pass while checking nothing.
 */
export function requireMarketData(files: string[], dir = marketDataDir()): string {
  const missing = files.filter((file) => !existsSync(join(dir, file)));
  if (missing.length > 0) {
    throw new Error(
      `Recorded market data not found in ${dir}: ${missing.join(", ")}. ` +
        "Set MARKET_DATA_DIR to the folder of recorded <SYMBOL>_<period>.csv candles to run these tests.",
    );
  }
  return dir;
}
