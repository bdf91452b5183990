import { describe, expect, it } from "vitest";
import { cycleEarnings, familyOfPath, rateText } from "./earn-rules.ts";

describe("earn rules", () => {
  it("maps routes to families", () => {
    expect(familyOfPath("/profit_index")).toBe("ai");
    expect(familyOfPath("/vip_index")).toBe("vip");
    expect(familyOfPath("/etflow_buy")).toBe("etf");
  });
  it("shows a fixed rate or a range as percentages, without floats", () => {
    expect(rateText("0.004", "0.004")).toBe("0.4%");
    expect(rateText("0.003", "0.005")).toBe("0.3% – 0.5%");
  });
  it("estimates a cycle as the server pays it, each day cut to 8 decimals", () => {
    expect(cycleEarnings("1234.56", "0.0035", 7, 8)).toBe("30.24672");
    expect(cycleEarnings("1234.56", "0.0035", 7, 2)).toBe("30.24");
    expect(cycleEarnings("100.123457", "0.0013", 3, 6)).toBe("0.39048");
    expect(cycleEarnings("0.00000333", "0.003", 7, 8)).toBe("0");
    expect(cycleEarnings("abc", "0.003", 7, 8)).toBe("0");
    expect(cycleEarnings("1.1234567", "0.003", 7, 6)).toBe("0");
    expect(cycleEarnings("100", "0.003", 7, undefined)).toBe("0");
  });
});
