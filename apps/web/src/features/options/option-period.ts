import { ratePercent } from "@northstar/shared/format";

/** How an expiry period reads: the largest whole unit ("30 s", "5 min", "1 h", "1 d"). */
export function periodParts(seconds: number): { unit: "seconds" | "minutes" | "hours" | "days"; n: number } {
  if (seconds % 86_400 === 0) {
    return { unit: "days", n: seconds / 86_400 };
  }
  if (seconds % 3600 === 0) {
    return { unit: "hours", n: seconds / 3600 };
  }
  if (seconds % 60 === 0 && seconds >= 60) {
    return { unit: "minutes", n: seconds / 60 };
  }
  return { unit: "seconds", n: seconds };
}

/** Time left until `expiresAt` at `now`, as "m:ss" (or "h:mm:ss"); "0:00" once expired. */
export function countdown(expiresAt: string, now: number, periodSeconds?: number): string {
  // The ticking clock can be up to a second older than the order (a card drawn right after buying):
  // never show more time left than the option's period.
  const left = Math.min(
    periodSeconds ?? Number.POSITIVE_INFINITY,
    Math.max(0, Math.ceil((new Date(expiresAt).getTime() - now) / 1000)),
  );
  const h = Math.floor(left / 3600);
  const m = Math.floor((left % 3600) / 60);
  const s = String(left % 60).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
}

/** A rate as a percentage without float arithmetic: "0.825" → "82.5". */
export function percent(rate: string): string {
  return ratePercent(rate);
}
