import type { Candle, CandlePeriod } from "@northstar/shared/markets";
import type { HistorySeed } from "../feeds/types.ts";
import { aggregateCandles } from "./aggregate.ts";

/**
 * Candles of any period from a history seed, each bucket rolled up from the finest section that covers
 * it: 1-minute and hourly periods come from the minute and hourly sections (daily candles are too coarse
 * for them), daily and longer ones from all three. Seed sections are aligned, so no bucket mixes sources.
 */
export function seedCandles(seed: HistorySeed, period: CandlePeriod): Candle[] {
  if (period === "1m") {
    return seed["1m"];
  }
  const minutes = aggregateCandles(seed["1m"], period);
  if (period === "5m" || period === "15m") {
    return minutes;
  }
  const hours = [...aggregateCandles(seed["1h"], "1h"), ...aggregateCandles(seed["1m"], "1h")];
  if (period === "1h" || period === "4h") {
    return aggregateCandles(hours, period);
  }
  return aggregateCandles([...seed["1d"], ...hours], period);
}
