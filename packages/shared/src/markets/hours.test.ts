import { describe, expect, it } from "vitest";
import type { TradingHours } from "./catalogue.ts";
import { isMarketOpen } from "./hours.ts";

const NEW_YORK_STOCKS: TradingHours = {
  timeZone: "America/New_York",
  sessions: [{ days: [1, 2, 3, 4, 5], open: "09:30", close: "16:00" }],
};
const FOREX: TradingHours = {
  timeZone: "America/New_York",
  sessions: [
    { days: [0], open: "17:00", close: "24:00" },
    { days: [1, 2, 3, 4], open: "00:00", close: "24:00" },
    { days: [5], open: "00:00", close: "17:00" },
  ],
};

describe("isMarketOpen", () => {
  it("follows sessions in the venue's zone, across daylight saving time", () => {
    // Summer (EDT, UTC-4): 09:30 New York is 13:30 UTC.
    expect(isMarketOpen(NEW_YORK_STOCKS, new Date("2026-07-15T13:29:00Z"))).toBe(false);
    expect(isMarketOpen(NEW_YORK_STOCKS, new Date("2026-07-15T13:30:00Z"))).toBe(true);
    expect(isMarketOpen(NEW_YORK_STOCKS, new Date("2026-07-15T19:59:00Z"))).toBe(true);
    expect(isMarketOpen(NEW_YORK_STOCKS, new Date("2026-07-15T20:00:00Z"))).toBe(false);
    // Winter (EST, UTC-5): 09:30 New York is 14:30 UTC.
    expect(isMarketOpen(NEW_YORK_STOCKS, new Date("2026-01-14T14:29:00Z"))).toBe(false);
    expect(isMarketOpen(NEW_YORK_STOCKS, new Date("2026-01-14T14:30:00Z"))).toBe(true);
    // The day DST starts (2026-03-08, 02:00 → 03:00 local) and the Monday after.
    expect(isMarketOpen(NEW_YORK_STOCKS, new Date("2026-03-09T13:30:00Z"))).toBe(true);
    expect(isMarketOpen(NEW_YORK_STOCKS, new Date("2026-03-06T14:29:00Z"))).toBe(false);
    // Saturday.
    expect(isMarketOpen(NEW_YORK_STOCKS, new Date("2026-07-18T15:00:00Z"))).toBe(false);
  });

  it("keeps forex open from Sunday 17:00 to Friday 17:00 New York", () => {
    expect(isMarketOpen(FOREX, new Date("2026-11-22T21:59:00Z"))).toBe(false); // Sunday 16:59 EST
    expect(isMarketOpen(FOREX, new Date("2026-11-22T22:00:00Z"))).toBe(true); // Sunday 17:00 EST
    expect(isMarketOpen(FOREX, new Date("2026-11-25T03:00:00Z"))).toBe(true); // midweek night
    expect(isMarketOpen(FOREX, new Date("2026-11-27T21:59:00Z"))).toBe(true); // Friday 16:59
    expect(isMarketOpen(FOREX, new Date("2026-11-27T22:00:00Z"))).toBe(false); // Friday 17:00
    expect(isMarketOpen(FOREX, new Date("2026-11-28T12:00:00Z"))).toBe(false); // Saturday
  });

  it("is always open without sessions", () => {
    expect(isMarketOpen({ timeZone: "UTC", sessions: [] }, new Date("2026-11-28T12:00:00Z"))).toBe(true);
  });
});
