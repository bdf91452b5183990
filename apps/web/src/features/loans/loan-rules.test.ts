import { describe, expect, it } from "vitest";
import { isLoanAmount, ratePercent } from "./loan-rules.ts";

describe("loan rules", () => {
  it("shows a daily rate as a percentage", () => {
    expect(ratePercent("0.001")).toBe("0.1");
    expect(ratePercent("0.00555")).toBe("0.555");
  });
  it("accepts amounts in cents only", () => {
    expect(isLoanAmount("100")).toBe(true);
    expect(isLoanAmount("100.25")).toBe(true);
    expect(isLoanAmount("100.255")).toBe(false);
    expect(isLoanAmount("0")).toBe(false);
    expect(isLoanAmount("")).toBe(false);
  });
});
