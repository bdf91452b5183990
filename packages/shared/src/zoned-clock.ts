/**
 * The clock of a named time zone (the withdrawal window's, Hong Kong by default), computed with Intl
 * so that neither the server's nor the browser's own zone plays any part.
 */
export interface ZonedClock {
  /** Hour of day in the zone, 0–23. */
  hour: number;
  /** The instant the zone's current day began. */
  dayStart: Date;
}

export function zonedClock(now: Date, timeZone: string): ZonedClock {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-GB", {
      timeZone,
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      hourCycle: "h23",
    })
      .formatToParts(now)
      .map((p) => [p.type, p.value]),
  );
  const hour = Number(parts.hour);
  const secondsIntoDay = hour * 3600 + Number(parts.minute) * 60 + Number(parts.second);
  return { hour, dayStart: new Date(Math.floor(now.getTime() / 1000) * 1000 - secondsIntoDay * 1000) };
}

/** Whether an hour lies in a window of whole hours: the start counts, the end does not. */
export function isWithinWindow(hour: number, window: { start: number; end: number }): boolean {
  return hour >= window.start && hour < window.end;
}

/**
 * The zone's name and its time now in a language ("Hong Kong Time", "11:30 AM"), for the form.
 * A zone Intl does not know shows its id and no time, rather than failing the page.
 */
export function describeZoneNow(now: Date, timeZone: string, locale: string): { zone: string; time: string } {
  try {
    const zone =
      new Intl.DateTimeFormat(locale, { timeZone, timeZoneName: "longGeneric" })
        .formatToParts(now)
        .find((p) => p.type === "timeZoneName")?.value ?? timeZone;
    const time = new Intl.DateTimeFormat(locale, { timeZone, timeStyle: "short" }).format(now);
    return { zone, time };
  } catch {
    return { zone: timeZone, time: "" };
  }
}
