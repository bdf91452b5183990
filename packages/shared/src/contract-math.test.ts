import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  equity,
  initialMargin,
  isLiquidatable,
  isLotMultiple,
  limitCrossed,
  liquidationPrice,
  maintenanceMargin,
  overnightCharge,
  type PositionTerms,
  riskRate,
  settleClose,
  stopLossHit,
  takeProfitHit,
  tpSlProblem,
  tradeFee,
  unrealisedPnl,
} from "./contract-math.ts";
import { MoneyDecimal } from "./money.ts";

const long: PositionTerms = {
  side: "long",
  entryPrice: "100",
  lots: "2",
  contractSize: "10",
  margin: "200",
  maintenanceRate: "0.005",
};
const short: PositionTerms = { ...long, side: "short" };

describe("contract money math", () => {
  it("margin is notional ÷ leverage and fees notional × rate, both rounded up to USDT's 6 decimals", () => {
    expect(initialMargin("100", "2", "10", 10)).toBe("200");
    expect(initialMargin("1", "1", "1", 3)).toBe("0.333334");
    expect(tradeFee("100", "2", "10", "0.0005")).toBe("1");
    expect(tradeFee("1.23456789", "1", "1", "0.001")).toBe("0.001235");
    expect(overnightCharge("1.23456789", "1", "1", "0.0001")).toBe("0.000124");
    expect(overnightCharge("100", "2", "10", "0.0001")).toBe("0.2");
    expect(maintenanceMargin("100", "2", "10", "0.005")).toBe("10");
  });

  it("unrealised PnL has the direction's sign and is rounded down (to USDT's decimals; the rule's 8 on request)", () => {
    expect(unrealisedPnl("long", "100", "110", "2", "10")).toBe("200");
    expect(unrealisedPnl("short", "100", "110", "2", "10")).toBe("-200");
    expect(unrealisedPnl("long", "1", "1.000000001", "1", "1")).toBe("0");
    expect(unrealisedPnl("short", "1", "1.000000001", "1", "1")).toBe("-0.000001");
    expect(unrealisedPnl("long", "1", "1.0000019", "1", "1")).toBe("0.000001");
    expect(unrealisedPnl("short", "1", "1.000000001", "1", "1", 8)).toBe("-0.00000001");
  });

  it("the liquidation price is where equity meets the maintenance margin", () => {
    // long: (100·20 − 200) ÷ (20 · 0.995) = 90.45226131…
    expect(liquidationPrice(long)).toBe("90.45226131");
    expect(liquidationPrice(short)).toBe("109.45273631");
    expect(isLiquidatable(long, "90.46")).toBe(false);
    expect(isLiquidatable(long, "90.45")).toBe(true);
    expect(isLiquidatable(short, "109.45")).toBe(false);
    expect(isLiquidatable(short, "109.46")).toBe(true);
    expect(liquidationPrice({ ...long, margin: "5000" })).toBe("0");
  });

  it("property: a price beyond the liquidation price liquidates, one strictly inside does not", () => {
    fc.assert(
      fc.property(
        fc.constantFrom<"long" | "short">("long", "short"),
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.integer({ min: 1, max: 500 }),
        fc.constantFrom(1, 2, 5, 10, 20, 50, 100),
        fc.constantFrom("0.004", "0.005", "0.01"),
        (side, cents, lots, leverage, mmr) => {
          const entry = new MoneyDecimal(cents).div(100).toFixed();
          const l = new MoneyDecimal(lots).div(100).toFixed();
          const p: PositionTerms = {
            side,
            entryPrice: entry,
            lots: l,
            contractSize: "1",
            margin: initialMargin(entry, l, "1", leverage),
            maintenanceRate: mmr,
          };
          const liq = new MoneyDecimal(liquidationPrice(p));
          const step = new MoneyDecimal("0.0001");
          const inside = side === "long" ? liq.plus(step) : liq.minus(step);
          const beyond = side === "long" ? liq.minus(step) : liq.plus(step);
          expect(isLiquidatable(p, inside.toFixed())).toBe(false);
          if (beyond.gt(0)) {
            expect(isLiquidatable(p, beyond.toFixed())).toBe(true);
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  it("risk rate is equity over margin", () => {
    expect(riskRate(long, "100")).toBe("1");
    expect(riskRate(long, "95")).toBe("0.5");
    expect(equity(long, "95").toFixed()).toBe("100");
  });

  it("a close pays released margin + PnL − fee, and a loss beyond the margin is the insurance's", () => {
    const base = {
      side: "long" as const,
      entryPrice: "100",
      lots: "2",
      contractSize: "10",
      margin: "200",
      feeRate: "0.001",
    };
    expect(settleClose({ ...base, exitPrice: "110", closeLots: "1" })).toEqual({
      marginReleased: "100",
      pnl: "100",
      fee: "1.1",
      payout: "198.9",
      shortfall: "0",
    });
    expect(settleClose({ ...base, exitPrice: "80", closeLots: "2" })).toEqual({
      marginReleased: "200",
      pnl: "-400",
      fee: "0",
      payout: "0",
      shortfall: "200",
    });
    expect(settleClose({ ...base, exitPrice: "90.001", closeLots: "2" })).toEqual({
      marginReleased: "200",
      pnl: "-199.98",
      fee: "0.02",
      payout: "0",
      shortfall: "0",
    });
  });

  it("property: a close never pays out less than zero nor takes more than the released margin", () => {
    fc.assert(
      fc.property(
        fc.constantFrom<"long" | "short">("long", "short"),
        fc.integer({ min: 1, max: 100_000 }),
        fc.integer({ min: 1, max: 100_000 }),
        fc.integer({ min: 1, max: 10 }),
        fc.integer({ min: 0, max: 10 }),
        (side, entryCents, exitCents, lots, closeExtra) => {
          const total = String(lots + closeExtra);
          const s = settleClose({
            side,
            entryPrice: String(entryCents / 100),
            exitPrice: String(exitCents / 100),
            closeLots: String(lots),
            lots: total,
            contractSize: "1",
            margin: "37.5",
            feeRate: "0.001",
          });
          const payout = new MoneyDecimal(s.payout);
          expect(payout.gte(0)).toBe(true);
          // The user's loss on this close: released margin − payout, never above the released margin.
          expect(new MoneyDecimal(s.marginReleased).minus(payout).lte(s.marginReleased)).toBe(true);
          // Postings sum to zero: −released + payout + fee − pnl − shortfall.
          const sum = new MoneyDecimal(s.marginReleased)
            .neg()
            .plus(s.payout)
            .plus(s.fee)
            .minus(s.pnl)
            .minus(s.shortfall);
          expect(sum.isZero()).toBe(true);
          expect(new MoneyDecimal(s.shortfall).gte(0)).toBe(true);
        },
      ),
      { numRuns: 500 },
    );
  });

  it("validates lots, TP/SL and triggers by direction", () => {
    expect(isLotMultiple("0.03", "0.01")).toBe(true);
    expect(isLotMultiple("0.035", "0.01")).toBe(false);
    expect(isLotMultiple("0", "0.01")).toBe(false);
    expect(tpSlProblem("long", "100", "110", "90")).toBeNull();
    expect(tpSlProblem("long", "100", "99", null)).toBe("take_profit");
    expect(tpSlProblem("long", "100", null, "100")).toBe("stop_loss");
    expect(tpSlProblem("short", "100", "90", "110")).toBeNull();
    expect(tpSlProblem("short", "100", "101", null)).toBe("take_profit");
    expect(limitCrossed("long", "100", "100")).toBe(true);
    expect(limitCrossed("long", "100", "100.01")).toBe(false);
    expect(limitCrossed("short", "100", "99.99")).toBe(false);
    expect(takeProfitHit("long", "110", "110")).toBe(true);
    expect(takeProfitHit("short", "90", "90.1")).toBe(false);
    expect(stopLossHit("long", "90", "90")).toBe(true);
    expect(stopLossHit("short", "110", "109")).toBe(false);
  });
});
