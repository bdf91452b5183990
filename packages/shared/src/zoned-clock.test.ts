import { describe, expect, it } from "vitest";
import { describeZoneNow, isWithinWindow, zonedClock } from "./zoned-clock.ts";

describe("zonedClock (the withdrawal window's clock, in the policy's zone, not the machine's)", () => {
  it("reads the hour in Hong Kong and the start of that day there", () => {
    // 03:30 UTC is 11:30 in Hong Kong (UTC+8, no daylight saving)
    const clock = zonedClock(new Date("2026-03-10T03:30:15Z"), "Asia/Hong_Kong");
    expect(clock.hour).toBe(11);
    expect(clock.dayStart.toISOString()).toBe("2026-03-09T16:00:00.000Z");
  });

  it("crosses the date line of the zone, not of UTC", () => {
    // 17:05 UTC on the 10th is already 01:05 on the 11th in Hong Kong
    const clock = zonedClock(new Date("2026-03-10T17:05:00Z"), "Asia/Hong_Kong");
    expect(clock.hour).toBe(1);
    expect(clock.dayStart.toISOString()).toBe("2026-03-10T16:00:00.000Z");
  });

  it("counts midnight as hour 0, never 24", () => {
    expect(zonedClock(new Date("2026-03-10T16:00:00Z"), "Asia/Hong_Kong").hour).toBe(0);
  });
});

describe("isWithinWindow (start inclusive, end exclusive, whole hours)", () => {
  const window = { start: 12, end: 24 };
  it("opens at the start hour and stays open until the end", () => {
    expect(isWithinWindow(11, window)).toBe(false);
    expect(isWithinWindow(12, window)).toBe(true);
    expect(isWithinWindow(23, window)).toBe(true);
    expect(isWithinWindow(0, window)).toBe(false);
  });
});

describe("describeZoneNow (what the form shows: the zone's name and its time now)", () => {
  it("names the zone and the time in the interface language", () => {
    const now = new Date("2026-03-10T03:30:00Z");
    const en = describeZoneNow(now, "Asia/Hong_Kong", "en-US");
    // ICU versions differ on "Hong Kong Time" or "Hong Kong Standard Time"
    expect(en.zone).toMatch(/^Hong Kong /);
    expect(en.time).toMatch(/^11:30\sAM$/);
    const zh = describeZoneNow(now, "Asia/Hong_Kong", "zh-CN");
    expect(zh.zone).toMatch(/^香港/);
    expect(zh.time).toBe("11:30");
  });

  it("falls back to the zone's id when Intl does not know it", () => {
    expect(describeZoneNow(new Date(), "Mars/Olympus", "en-US")).toEqual({ zone: "Mars/Olympus", time: "" });
  });
});
