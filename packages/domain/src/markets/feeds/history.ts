import { periodStart } from "@northstar/shared/markets";
import { DEFAULT_HISTORY_SPAN, type HistoryPeriod, type HistorySeed, type HistorySpan } from "./types.ts";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** A half-open time range [from, to) in ms. */
export interface TimeRange {
  from: number;
  to: number;
}

/**
 * The three sections of a history seed ending before `now`. The current minute is live, not history.
 * The minute section starts on an hour and the hourly one on a UTC day, so that no hourly or daily
 * bucket is split between two sections.
 */
export function historyRanges(
  now: number,
  span: Partial<HistorySpan> = {},
): Record<HistoryPeriod, TimeRange> {
  const s = { ...DEFAULT_HISTORY_SPAN, ...span };
  const end = periodStart("1m", now);
  const minuteFrom = periodStart("1h", end - s.minuteHours * HOUR);
  const hourFrom = periodStart("1d", minuteFrom - s.hourDays * DAY);
  const dayFrom = hourFrom - s.dayDays * DAY;
  return {
    "1d": { from: dayFrom, to: hourFrom },
    "1h": { from: hourFrom, to: minuteFrom },
    "1m": { from: minuteFrom, to: end },
  };
}

export const emptySeed = (): HistorySeed => ({ "1d": [], "1h": [], "1m": [] });

export const HISTORY_PERIOD_MS: Record<HistoryPeriod, number> = { "1m": 60_000, "1h": HOUR, "1d": DAY };
