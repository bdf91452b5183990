import { describe, expect, it } from "vitest";
import { c2cQuote, secondsLeft } from "./c2c.ts";

describe("c2c quote", () => {
  it("cuts coins down to the coin's decimals from a fiat amount", () => {
    expect(c2cQuote("fiat", "1000", "7.3", 8)).toEqual({ fiatAmount: "1000", coinAmount: "136.98630136" });
    expect(c2cQuote("fiat", "1000", "7.3", 6)).toEqual({ fiatAmount: "1000", coinAmount: "136.986301" });
  });
  it("rounds the fiat up to the cent from a coin quantity", () => {
    expect(c2cQuote("coin", "10.001", "7.33", 6)).toEqual({ fiatAmount: "73.31", coinAmount: "10.001" });
  });
  it("refuses too many decimals or nothing at all", () => {
    expect(c2cQuote("fiat", "10.001", "7", 6)).toBeNull();
    expect(c2cQuote("coin", "0.000000001", "7", 8)).toBeNull();
    expect(c2cQuote("coin", "1.0000001", "7", 6)).toBeNull();
    expect(c2cQuote("fiat", "0.01", "100000000000", 8)).toBeNull();
  });
  it("counts whole seconds left, never below zero", () => {
    const now = new Date("2026-01-01T00:00:00Z");
    expect(secondsLeft("2026-01-01T03:00:00Z", now)).toBe(10_800);
    expect(secondsLeft("2025-12-31T23:00:00Z", now)).toBe(0);
  });
});
