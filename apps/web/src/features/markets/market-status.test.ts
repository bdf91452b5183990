import { isMarketOpen, type TradingHours } from "@northstar/shared/markets";
import { describe, expect, it } from "vitest";
import { indicatorState, marketOpenNow } from "./market-status.ts";

const WEEKDAYS = [1, 2, 3, 4, 5];
/** The seeded catalogue's kinds of hours: forex (Sunday 17:00 to Friday 17:00 New York), a US stock, metals. */
const HOURS: Record<string, TradingHours> = {
  forex: {
    timeZone: "America/New_York",
    sessions: [
      { days: [0], open: "17:00", close: "24:00" },
      { days: [1, 2, 3, 4], open: "00:00", close: "24:00" },
      { days: [5], open: "00:00", close: "17:00" },
    ],
  },
  stock: { timeZone: "America/New_York", sessions: [{ days: WEEKDAYS, open: "09:30", close: "16:00" }] },
  metal: {
    timeZone: "America/New_York",
    sessions: [
      { days: [0], open: "18:00", close: "24:00" },
      { days: [1, 2, 3, 4], open: "00:00", close: "17:00" },
      { days: [1, 2, 3, 4], open: "18:00", close: "24:00" },
      { days: [5], open: "00:00", close: "17:00" },
    ],
  },
};

describe("the live indicator of a market outside its trading hours", () => {
  // A Saturday noon in New York: forex, stocks and metals are all closed.
  const saturday = new Date("2026-11-28T17:00:00Z");
  // A Wednesday 11:00 in New York: all open.
  const wednesday = new Date("2026-11-25T16:00:00Z");

  for (const [kind, hours] of Object.entries(HOURS)) {
    it(`${kind}: closed on Saturday shows the market-closed state, never "Live", even with the socket open`, () => {
      const open = isMarketOpen(hours, saturday);
      expect(open).toBe(false);
      // The feed's ticker says closed; the catalogue's flag from the page load does not override it.
      const now = marketOpenNow({ x: open }, { open: true });
      expect(now).toBe(false);
      for (const socket of ["open", "connecting", "closed"] as const) {
        expect(indicatorState(now, socket)).toBe("market-closed");
      }
    });

    it(`${kind}: open on a Wednesday morning shows the socket's state`, () => {
      const open = isMarketOpen(hours, wednesday);
      expect(open).toBe(true);
      expect(indicatorState(marketOpenNow({ x: open }, { open: false }), "open")).toBe("open");
    });
  }

  it("before the first ticker arrives, the catalogue's flag decides", () => {
    expect(indicatorState(marketOpenNow(undefined, { open: false }), "open")).toBe("market-closed");
    expect(indicatorState(marketOpenNow(undefined, { open: true }), "connecting")).toBe("connecting");
  });
});
