import { describe, expect, it } from "vitest";
import { fromLots, fromQuoteUnits, fromTicks, toLots, toQuoteUnits, toTicks } from "./units.ts";

describe("units", () => {
  it("converts prices on the tick grid and back", () => {
    expect(toTicks("101.25", "0.05")).toBe(2025);
    expect(toTicks("0.00000003", "0.00000001")).toBe(3);
    expect(toTicks("65000", "0.01")).toBe(6_500_000);
    expect(fromTicks(2025, "0.05")).toBe("101.25");
    expect(fromTicks(6_500_000, "0.01")).toBe("65000");
    expect(fromTicks(0, "0.01")).toBe("0");
  });

  it("refuses prices off the grid or not plain decimals", () => {
    expect(toTicks("101.26", "0.05")).toBeNull();
    expect(toTicks("1.001", "0.01")).toBeNull();
    expect(toTicks("-1", "0.01")).toBeNull();
    expect(toTicks("1e3", "0.01")).toBeNull();
    expect(toTicks("abc", "0.01")).toBeNull();
    expect(toTicks("", "0.01")).toBeNull();
    expect(toTicks("1", "0")).toBeNull();
    // Not a safe integer of ticks.
    expect(toTicks("99999999999999999999", "0.001")).toBeNull();
  });

  it("converts lots the same way", () => {
    expect(toLots("1.5", "0.001")).toBe(1500);
    expect(toLots("1.5005", "0.001")).toBeNull();
    expect(fromLots(1500, "0.001")).toBe("1.5");
  });

  it("rounds a quote budget down to whole quote units", () => {
    // 1 unit = 0.01 × 0.001 = 0.00001 quote.
    expect(toQuoteUnits("100", "0.01", "0.001")).toBe(10_000_000);
    expect(toQuoteUnits("0.000019", "0.01", "0.001")).toBe(1);
    expect(toQuoteUnits("x", "0.01", "0.001")).toBeNull();
    expect(fromQuoteUnits(10_000_000, "0.01", "0.001")).toBe("100");
    // A trade of 3 lots at 2025 ticks is 6075 units: 3 × 0.001 × 101.25 = 0.30375.
    expect(fromQuoteUnits(2025 * 3, "0.05", "0.001")).toBe("0.30375");
  });

  it("refuses to format a count that is not a non-negative safe integer", () => {
    expect(() => fromTicks(1.5, "0.01")).toThrow(RangeError);
    expect(() => fromLots(-1, "0.01")).toThrow(RangeError);
  });
});
