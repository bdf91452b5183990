import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MoneyDecimal } from "./money.ts";
import { optionFee, optionOutcome, optionWinPayout } from "./options.ts";

const terms = (over: Partial<Parameters<typeof optionOutcome>[0]> = {}) => ({
  direction: "up" as const,
  amount: "100",
  fee: "1",
  payoutRate: "0.85",
  tie: "refund" as const,
  ...over,
});

describe("the options settlement rule", () => {
  it("pays amount + amount × payout rate on a win, up above and down below the purchase price", () => {
    expect(optionOutcome(terms(), "100.5", "100.51", 6)).toEqual({
      status: "won",
      payout: "185",
      profit: "84",
    });
    expect(optionOutcome(terms({ direction: "down" }), "100.5", "100.49", 6)).toEqual({
      status: "won",
      payout: "185",
      profit: "84",
    });
  });

  it("pays nothing on a loss: the user loses amount and fee", () => {
    expect(optionOutcome(terms(), "100.5", "100.49", 6)).toEqual({
      status: "lost",
      payout: "0",
      profit: "-101",
    });
    expect(optionOutcome(terms({ direction: "down" }), "100.5", "100.51", 6)).toMatchObject({
      status: "lost",
    });
  });

  it("refunds the amount (not the fee) on a tie by default, or pays nothing when the product says so", () => {
    expect(optionOutcome(terms(), "100.50", "100.5", 6)).toEqual({
      status: "tied",
      payout: "100",
      profit: "-1",
    });
    expect(optionOutcome(terms({ tie: "loss" }), "7", "7", 6)).toEqual({
      status: "tied",
      payout: "0",
      profit: "-101",
    });
  });

  it("rounds the fee up and the winnings down to the settlement currency's decimals", () => {
    expect(optionFee("10.123", "0.015", 6)).toBe("0.151845");
    expect(optionFee("10.1234", "0.015", 6)).toBe("0.151851");
    expect(optionFee("0.000001", "0.01", 6)).toBe("0.000001");
    expect(optionWinPayout("10.000003", "0.5", 6)).toBe("15.000004");
    expect(optionWinPayout("10.123457", "0.85", 6)).toBe("18.728395");
    expect(optionWinPayout("10.00000003", "0.5", 8)).toBe("15.00000004");
  });

  it("property: for random orders and price paths, users' results plus the house result sum to zero", () => {
    const order = fc.record({
      direction: fc.constantFrom("up" as const, "down" as const),
      cents: fc.integer({ min: 1, max: 10_000_000 }),
      rate: fc.integer({ min: 1, max: 100 }),
      feeBp: fc.integer({ min: 0, max: 500 }),
      tie: fc.constantFrom("refund" as const, "loss" as const),
      // a price path in ticks: purchase is the first, settlement the first at or after expiry
      path: fc.array(fc.integer({ min: 1, max: 50 }), { minLength: 2, maxLength: 20 }),
      expiryIndex: fc.nat(),
    });
    fc.assert(
      fc.property(fc.array(order, { minLength: 1, maxLength: 30 }), (orders) => {
        let house = new MoneyDecimal(0);
        let users = new MoneyDecimal(0);
        for (const o of orders) {
          const amount = new MoneyDecimal(o.cents).div(100).toFixed();
          const fee = optionFee(amount, new MoneyDecimal(o.feeBp).div(10_000).toFixed(), 6);
          const purchase = String(o.path[0]);
          const settlement = String(o.path[1 + (o.expiryIndex % (o.path.length - 1))]);
          const outcome = optionOutcome(
            {
              direction: o.direction,
              amount,
              fee,
              payoutRate: new MoneyDecimal(o.rate).div(100).toFixed(),
              tie: o.tie,
            },
            purchase,
            settlement,
            6,
          );
          // What moved: amount + fee in, payout out.
          house = house.plus(amount).plus(fee).minus(outcome.payout);
          users = users.plus(outcome.profit);
          expect(new MoneyDecimal(outcome.payout).gte(0)).toBe(true);
          expect(new MoneyDecimal(outcome.payout).decimalPlaces()).toBeLessThanOrEqual(6);
        }
        expect(users.plus(house).isZero()).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
