/** Calendar days in UTC as YYYY-MM-DD strings: the unit of the daily yield. */
const DAY_MS = 86_400_000;

export function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

export function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);
}

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
}

/** Yield days due by `now` for an order started on `startDay`: day k is due from startDay + k. */
export function daysDue(startDay: string, cycleDays: number, now: Date): number {
  return Math.max(0, Math.min(cycleDays, daysBetween(startDay, utcDay(now))));
}
