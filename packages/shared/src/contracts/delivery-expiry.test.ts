import { describe, expect, it } from "vitest";
import { nextDeliveryExpiry } from "./delivery-expiry.ts";

const FRIDAY_8 = { weekday: 5, time: "08:00" };
const next = (roll: "weekly" | "quarterly", now: string) =>
  nextDeliveryExpiry(roll, new Date(now), FRIDAY_8).toISOString();

describe("rolling delivery expiries", () => {
  it("weekly: the coming Friday 08:00 UTC, the next week's from the expiry instant on", () => {
    expect(next("weekly", "2026-03-04T15:00:00Z")).toBe("2026-03-06T08:00:00.000Z");
    expect(next("weekly", "2026-03-06T07:59:59.999Z")).toBe("2026-03-06T08:00:00.000Z");
    expect(next("weekly", "2026-03-06T08:00:00.000Z")).toBe("2026-03-13T08:00:00.000Z");
    expect(next("weekly", "2026-03-07T00:00:00Z")).toBe("2026-03-13T08:00:00.000Z");
    // Across a month and a year end.
    expect(next("weekly", "2026-12-31T12:00:00Z")).toBe("2027-01-01T08:00:00.000Z");
  });

  it("quarterly: the last Friday of March, June, September or December", () => {
    expect(next("quarterly", "2026-01-10T00:00:00Z")).toBe("2026-03-27T08:00:00.000Z");
    expect(next("quarterly", "2026-03-27T07:59:00Z")).toBe("2026-03-27T08:00:00.000Z");
    expect(next("quarterly", "2026-03-27T08:00:00Z")).toBe("2026-06-26T08:00:00.000Z");
    expect(next("quarterly", "2026-11-28T04:00:00Z")).toBe("2026-12-25T08:00:00.000Z");
    expect(next("quarterly", "2026-12-25T09:00:00Z")).toBe("2027-03-26T08:00:00.000Z");
  });

  it("another weekday and time from policy", () => {
    const wed = { weekday: 3, time: "16:30" };
    expect(nextDeliveryExpiry("weekly", new Date("2026-03-04T16:29:00Z"), wed).toISOString()).toBe(
      "2026-03-04T16:30:00.000Z",
    );
    expect(nextDeliveryExpiry("quarterly", new Date("2026-07-01T00:00:00Z"), wed).toISOString()).toBe(
      "2026-09-30T16:30:00.000Z",
    );
  });
});
