import { describe, expect, it } from "vitest";
import { isCalendarDay, zCalendarDay } from "./common.ts";
import { ZEarnPublishRateSchema } from "./earn.ts";
import { ZReferralRunRequestSchema } from "./referral.ts";

describe("calendar days", () => {
  it("accepts days of the calendar, leap days of leap years included", () => {
    for (const day of ["2026-02-28", "2024-02-29", "2000-02-29", "2026-12-31", "2026-04-30"]) {
      expect(isCalendarDay(day), day).toBe(true);
    }
  });

  it("refuses impossible days as FIELD_INVALID naming the field", () => {
    for (const day of [
      "2026-02-30",
      "2025-02-29",
      "1900-02-29",
      "2026-13-01",
      "2026-00-10",
      "2026-04-31",
      "0000-01-01",
      "2026-1-1",
    ]) {
      expect(isCalendarDay(day), day).toBe(false);
      const parsed = ZReferralRunRequestSchema.safeParse({ day });
      expect(parsed.success, day).toBe(false);
      expect(parsed.error?.issues[0]).toMatchObject({ message: "FIELD_INVALID", path: ["day"] });
    }
    expect(zCalendarDay.safeParse(" 2026-02-28 ").data).toBe("2026-02-28");
    const rate = (day: string) => ZEarnPublishRateSchema.safeParse({ product_id: 1, day, rate: "0.001" });
    expect(rate("2026-02-28").success).toBe(true);
    expect(rate("2026-02-30").error?.issues[0]).toMatchObject({ message: "FIELD_INVALID", path: ["day"] });
  });
});
