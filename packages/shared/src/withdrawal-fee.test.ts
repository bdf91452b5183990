import { describe, expect, it } from "vitest";
import { withdrawalQuote } from "./withdrawal-fee.ts";

describe("withdrawalQuote (SPEC section 9: the fee rounded up, the user receives the rest)", () => {
  it("takes the rate of the amount and leaves the rest as received", () => {
    expect(withdrawalQuote("1000", "0.05", 6)).toEqual({ fee: "50", received: "950" });
  });

  it("rounds the fee up to the currency's decimals, never under-charging", () => {
    // 0.000021 × 0.05 = 0.00000105 → 0.000002 at 6 decimals
    expect(withdrawalQuote("0.000021", "0.05", 6)).toEqual({ fee: "0.000002", received: "0.000019" });
    expect(withdrawalQuote("100.01", "0.05", 2)).toEqual({ fee: "5.01", received: "95" });
  });

  it("is exact where a float would not be", () => {
    expect(withdrawalQuote("0.3", "0.1", 8)).toEqual({ fee: "0.03", received: "0.27" });
  });

  it("charges nothing at a zero rate", () => {
    expect(withdrawalQuote("123.45", "0", 2)).toEqual({ fee: "0", received: "123.45" });
  });

  it("gives no quote for an amount finer than the currency's decimals", () => {
    expect(withdrawalQuote("1.0000001", "0.05", 6)).toBeNull();
  });

  it("gives no quote for an amount that is not a decimal string", () => {
    for (const bad of ["", "abc", "-5", "1e3", "1,000", " "]) {
      expect(withdrawalQuote(bad, "0.05", 6)).toBeNull();
    }
  });
});
