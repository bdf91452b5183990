import { MoneyDecimal } from "@northstar/shared/money";
import type { DbOrTx } from "../db/client.ts";

/** One market's own 24h volume: base quantity and quote turnover of the platform's real trades. */
export interface PlatformVolume {
  volume: string;
  turnover: string;
}

/** Reads each market's own volume traded since `since`; markets with none are absent. */
export type PlatformVolumeSource = (db: DbOrTx, since: Date) => Promise<Map<string, PlatformVolume>>;

const sources = new Set<PlatformVolumeSource>();

/**
 * Lets a trading module above markets (spot) report the platform's own traded volume, so the
 * tickers show what was traded here, not the volume a feed reports for another venue. With no source
 * registered every market's volume is zero.
 */
export function addPlatformVolumeSource(source: PlatformVolumeSource): void {
  sources.add(source);
}

/** The platform's own volume per market since `since`, summed over every registered source. */
export async function readPlatformVolume(db: DbOrTx, since: Date): Promise<Map<string, PlatformVolume>> {
  const total = new Map<string, PlatformVolume>();
  for (const source of sources) {
    for (const [symbol, v] of await source(db, since)) {
      const had = total.get(symbol);
      total.set(
        symbol,
        had
          ? {
              volume: sum(had.volume, v.volume),
              turnover: sum(had.turnover, v.turnover),
            }
          : v,
      );
    }
  }
  return total;
}

function sum(a: string, b: string): string {
  return new MoneyDecimal(a).plus(b).toFixed();
}
