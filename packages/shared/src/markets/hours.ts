import type { TradingHours } from "./catalogue.ts";

const formatters = new Map<string, Intl.DateTimeFormat>();
const offsets = new Map<string, number>();
const BUCKET_MS = 15 * 60_000;

/**
 * The zone's offset from UTC (ms) at `at`. Intl is slow (microseconds a call) and offsets change only
 * at daylight-saving transitions, which fall on quarter hours, so it is asked once per zone and
 * quarter hour and remembered.
 */
function zoneOffset(timeZone: string, at: number): number {
  const bucket = Math.floor(at / BUCKET_MS) * BUCKET_MS;
  const key = `${timeZone}|${bucket}`;
  let offset = offsets.get(key);
  if (offset === undefined) {
    let format = formatters.get(timeZone);
    if (!format) {
      format = new Intl.DateTimeFormat("en-US", {
        timeZone,
        year: "numeric",
        month: "numeric",
        day: "numeric",
        hour: "numeric",
        minute: "numeric",
        hourCycle: "h23",
      });
      formatters.set(timeZone, format);
    }
    const parts: Record<string, number> = {};
    for (const part of format.formatToParts(bucket)) {
      parts[part.type] = Number(part.value);
    }
    const local = Date.UTC(
      parts.year ?? 1970,
      (parts.month ?? 1) - 1,
      parts.day ?? 1,
      parts.hour ?? 0,
      parts.minute ?? 0,
    );
    offset = local - bucket;
    if (offsets.size > 100_000) {
      offsets.clear();
    }
    offsets.set(key, offset);
  }
  return offset;
}

/** Weekday (0–6) and minute of the day of `at` in `timeZone`. */
function localClock(timeZone: string, at: Date): { day: number; minute: number } {
  const local = new Date(at.getTime() + zoneOffset(timeZone, at.getTime()));
  return { day: local.getUTCDay(), minute: local.getUTCHours() * 60 + local.getUTCMinutes() };
}

const minutes = (clock: string) => Number(clock.slice(0, 2)) * 60 + Number(clock.slice(3, 5));

/** Whether an instrument with these hours trades at `at`. No sessions means always open. */
export function isMarketOpen(hours: TradingHours, at: Date = new Date()): boolean {
  if (hours.sessions.length === 0) {
    return true;
  }
  const now = localClock(hours.timeZone, at);
  return hours.sessions.some(
    (s) => s.days.includes(now.day) && now.minute >= minutes(s.open) && now.minute < minutes(s.close),
  );
}
