import { isTimeZone } from "@northstar/shared/policy";

/** The calendar day (YYYY-MM-DD) it is at `at` in `timeZone`. */
export function localDate(at: Date, timeZone: string): string {
  return new Intl.DateTimeFormat("en-CA", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  }).format(at);
}

export const previousDay = (day: string) =>
  new Date(Date.parse(`${day}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);

export { isTimeZone };

/**
 * Where a user stands in the cycle on `today`: the days already signed in this cycle, and the day a
 * claim today gives (or gave). After day 7 a new cycle begins; a missed day restarts it at day 1 when
 * `restartOnMiss`, otherwise the next claim continues it.
 */
export function cycleState(
  profile: { cycleDay: number; lastClaimDate: string | null },
  today: string,
  restartOnMiss: boolean,
): { signedToday: boolean; signedDays: number; day: number } {
  const { cycleDay, lastClaimDate } = profile;
  if (lastClaimDate === today) {
    return { signedToday: true, signedDays: cycleDay, day: cycleDay };
  }
  const continues = lastClaimDate !== null && (lastClaimDate === previousDay(today) || !restartOnMiss);
  const signed = continues && cycleDay < 7 ? cycleDay : 0;
  return { signedToday: false, signedDays: signed, day: signed + 1 };
}
