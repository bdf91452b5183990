import { MoneyDecimal } from "@northstar/shared/money";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fromTicks } from "./grid.ts";

describe("fromTicks", () => {
  it("equals decimal multiplication for every tick size the catalogue uses, and beyond", () => {
    const sizes = ["0.01", "0.1", "0.00001", "0.001", "0.0001", "1", "10", "0.25", "0.5", "5", "0.000000001"];
    fc.assert(
      fc.property(
        fc.constantFrom(...sizes),
        fc.oneof(fc.nat(1000), fc.nat(2 ** 40), fc.maxSafeNat()),
        (size, ticks) => {
          expect(fromTicks(ticks, size)).toBe(new MoneyDecimal(ticks).times(size).toFixed());
        },
      ),
      { numRuns: 3000 },
    );
  });
});
