import { describe, expect, it } from "vitest";
import { countdown, percent, periodParts } from "./option-period.ts";

describe("options period and countdown texts", () => {
  it("names a period in its largest whole unit", () => {
    expect(periodParts(30)).toEqual({ unit: "seconds", n: 30 });
    expect(periodParts(90)).toEqual({ unit: "seconds", n: 90 });
    expect(periodParts(120)).toEqual({ unit: "minutes", n: 2 });
    expect(periodParts(3600)).toEqual({ unit: "hours", n: 1 });
    expect(periodParts(86_400)).toEqual({ unit: "days", n: 1 });
  });

  it("counts down in whole seconds and stops at 0:00", () => {
    const expires = "2026-01-01T00:01:00.000Z";
    const at = (iso: string) => new Date(iso).getTime();
    expect(countdown(expires, at("2026-01-01T00:00:00.000Z"))).toBe("1:00");
    expect(countdown(expires, at("2026-01-01T00:00:30.500Z"))).toBe("0:30");
    expect(countdown(expires, at("2026-01-01T00:02:00.000Z"))).toBe("0:00");
    expect(countdown("2026-01-01T02:00:05.000Z", at("2026-01-01T00:00:00.000Z"))).toBe("2:00:05");
    // A clock reading from before the purchase shows the period, not more.
    expect(countdown("2026-01-01T00:00:10.000Z", at("2025-12-31T23:59:59.200Z"), 10)).toBe("0:10");
  });

  it("writes rates as percentages exactly", () => {
    expect(percent("0.8")).toBe("80");
    expect(percent("0.825")).toBe("82.5");
    expect(percent("0.01")).toBe("1");
    expect(percent("1.5")).toBe("150");
    expect(percent("0")).toBe("0");
  });
});
