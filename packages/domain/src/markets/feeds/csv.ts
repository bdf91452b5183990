import { readFile } from "node:fs/promises";
import type { Candle } from "@northstar/shared/markets";

const HEADER = "time,open,high,low,close,volume";

/**
 * Parses a recorded-candles CSV (`time,open,high,low,close,volume`, ISO-8601 UTC bar open). The format
 * has no quoting, so a split per line is the whole parser. Price strings are kept exactly as written.
 */
export function parseCandlesCsv(text: string, source = "csv"): Candle[] {
  const lines = text.split(/\r?\n/);
  if (lines[0]?.trim() !== HEADER) {
    throw new Error(`${source}: expected header "${HEADER}"`);
  }
  const candles: Candle[] = [];
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]?.trim();
    if (!line) {
      continue;
    }
    const [time, open, high, low, close, volume] = line.split(",");
    const ms = time ? Date.parse(time) : Number.NaN;
    if (Number.isNaN(ms) || !open || !high || !low || !close || volume === undefined || volume === "") {
      throw new Error(`${source}:${i + 1}: malformed row`);
    }
    candles.push({ time: ms, open, high, low, close, volume });
  }
  return candles;
}

/** Reads a recorded-candles file, or null when it does not exist. */
export async function readCandlesCsv(path: string): Promise<Candle[] | null> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") {
      return null;
    }
    throw error;
  }
  return parseCandlesCsv(text, path);
}
