/**
 * Rolling delivery contracts: a weekly contract expires every week at the delivery weekday and time
 * (UTC); a quarterly one on the last such weekday of March, June, September and December. The
 * product always offers the next expiry after now; a position keeps the expiry it was opened with.
 */
export const DELIVERY_ROLLS = ["weekly", "quarterly"] as const;
export type DeliveryRoll = (typeof DELIVERY_ROLLS)[number];

/** When delivery contracts expire: a weekday (0 Sunday … 6 Saturday) and a UTC time "HH:MM". */
export interface DeliveryTime {
  weekday: number;
  time: string;
}

const DAY_MS = 86_400_000;

function at(year: number, month: number, day: number, time: string): Date {
  const [h = 0, m = 0] = time.split(":").map(Number);
  return new Date(Date.UTC(year, month, day, h, m));
}

/** The weekly expiry on or after the UTC day of `from` (that day's, if its time is still ahead). */
function weeklyFrom(from: Date, t: DeliveryTime): Date {
  const ahead = (t.weekday - from.getUTCDay() + 7) % 7;
  return at(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate() + ahead, t.time);
}

/** The last delivery weekday of a month, at the delivery time. */
function lastOfMonth(year: number, month: number, t: DeliveryTime): Date {
  const last = new Date(Date.UTC(year, month + 1, 0));
  const back = (last.getUTCDay() - t.weekday + 7) % 7;
  return at(year, month, last.getUTCDate() - back, t.time);
}

/** The first expiry of the roll strictly after `now`. */
export function nextDeliveryExpiry(roll: DeliveryRoll, now: Date, t: DeliveryTime): Date {
  if (roll === "weekly") {
    const candidate = weeklyFrom(now, t);
    return candidate.getTime() > now.getTime() ? candidate : new Date(candidate.getTime() + 7 * DAY_MS);
  }
  let year = now.getUTCFullYear();
  let month = Math.floor(now.getUTCMonth() / 3) * 3 + 2;
  for (;;) {
    const candidate = lastOfMonth(year, month, t);
    if (candidate.getTime() > now.getTime()) {
      return candidate;
    }
    month += 3;
    if (month > 11) {
      month -= 12;
      year += 1;
    }
  }
}
