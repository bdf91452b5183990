import { describe, expect, it } from "vitest";
import { launchpadCost } from "./launchpad.ts";

describe("launchpadCost", () => {
  it("rounds price × quantity up to the pay currency's decimals, and leaves an exact one as it is", () => {
    expect(launchpadCost("1.00000001", "0.12345678901", 6).toFixed()).toBe("0.123457");
    expect(launchpadCost("333.33333333", "0.5", 6).toFixed()).toBe("166.666667");
    expect(launchpadCost("300", "0.5", 6).toFixed()).toBe("150");
    expect(launchpadCost("0.00000001", "0.0001", 6).toFixed()).toBe("0.000001");
  });
});
