import { MoneyDecimal } from "@northstar/shared/money";
import { PROOF_BUCKETS, type ProofBucket } from "@northstar/shared/proofs";
import { describe, expect, it } from "vitest";
import { splitHolding } from "./holding-split.ts";

const buckets = (set: Partial<Record<ProofBucket, string>>) =>
  Object.fromEntries(PROOF_BUCKETS.map((b) => [b, set[b] ?? "0"])) as Record<ProofBucket, string>;

describe("splitHolding", () => {
  it("adds every bucket beyond available and held, exactly, and lists the non-zero ones in order", () => {
    const split = splitHolding(
      buckets({
        available: "1.5",
        held: "0.25",
        withdrawal: "100.000000000000000001",
        earn_principal: "500",
        earn_yield: "0.000000000000000001",
        c2c: "0",
      }),
    );
    expect(split.available).toBe("1.5");
    expect(split.held).toBe("0.25");
    expect(split.elsewhere).toBe("600.000000000000000002");
    expect(split.parts.map((p) => p.bucket)).toEqual(["earn_principal", "earn_yield", "withdrawal"]);
  });

  it("the three columns add up to the holding's total", () => {
    const b = buckets({
      available: "3",
      held: "2",
      contract_margin: "900",
      launchpad: "100",
      option_stake: "7",
    });
    const split = splitHolding(b);
    const total = Object.values(b).reduce((s, v) => s.plus(v), new MoneyDecimal(0));
    expect(new MoneyDecimal(split.available).plus(split.held).plus(split.elsewhere).equals(total)).toBe(true);
    expect(splitHolding(buckets({ available: "1" })).parts).toEqual([]);
  });
});
