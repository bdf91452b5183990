/**
 * Candle periods. The worker stores 1-minute candles; every longer period aggregates from shorter ones.
 * All buckets are in UTC; weeks start on Monday, months and years on the calendar.
 */
export const CANDLE_PERIODS = ["1m", "5m", "15m", "1h", "4h", "1d", "1w", "1M", "1y"] as const;
export type CandlePeriod = (typeof CANDLE_PERIODS)[number];

/** The periods the chart offers (SPEC section 2: minute, hour, day, week, month, year). */
export const CHART_PERIODS: readonly CandlePeriod[] = ["1m", "1h", "1d", "1w", "1M", "1y"];

const MINUTE = 60_000;
const DAY = 1440 * MINUTE;
const FIXED_MS: Partial<Record<CandlePeriod, number>> = {
  "1m": MINUTE,
  "5m": 5 * MINUTE,
  "15m": 15 * MINUTE,
  "1h": 60 * MINUTE,
  "4h": 240 * MINUTE,
  "1d": 1440 * MINUTE,
};

/** Start (ms, UTC) of the bucket of `period` that contains `time`. */
export function periodStart(period: CandlePeriod, time: number): number {
  const fixed = FIXED_MS[period];
  if (fixed !== undefined) {
    return Math.floor(time / fixed) * fixed;
  }
  const d = new Date(time);
  if (period === "1w") {
    const day = Math.floor(time / DAY) * DAY;
    const weekday = (d.getUTCDay() + 6) % 7; // Monday = 0
    return day - weekday * DAY;
  }
  if (period === "1M") {
    return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
  }
  return Date.UTC(d.getUTCFullYear(), 0, 1);
}

/** Start (ms, UTC) of the bucket after the one starting at `start`. */
export function nextPeriodStart(period: CandlePeriod, start: number): number {
  const fixed = FIXED_MS[period];
  if (fixed !== undefined) {
    return start + fixed;
  }
  if (period === "1w") {
    return start + 7 * DAY;
  }
  const d = new Date(start);
  if (period === "1M") {
    return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
  }
  return Date.UTC(d.getUTCFullYear() + 1, 0, 1);
}

/** The shorter period each period is rolled up from. */
export const ROLLUP_SOURCE: Record<Exclude<CandlePeriod, "1m">, CandlePeriod> = {
  "5m": "1m",
  "15m": "5m",
  "1h": "15m",
  "4h": "1h",
  "1d": "1h",
  "1w": "1d",
  "1M": "1d",
  "1y": "1M",
};

/** One candle. Prices and volume are decimal strings; `time` is the bucket start in ms UTC. */
export interface Candle {
  time: number;
  open: string;
  high: string;
  low: string;
  close: string;
  volume: string;
}
