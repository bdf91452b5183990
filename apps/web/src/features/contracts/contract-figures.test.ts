import { describe, expect, it } from "vitest";
import { preTradeFigures } from "./contract-figures.ts";

const product = {
  contract_size: "1",
  fee_rate: "0.0005",
  overnight_rate: "0.0003",
  maintenance_rate: "0.005",
};

describe("the pre-trade figures", () => {
  it("shows margin, fee, liquidation price and the overnight charge of the order", () => {
    expect(preTradeFigures(product, "long", "90000", "0.1", 10)).toEqual({
      margin: "900",
      fee: "4.5",
      liquidationPrice: "81407.03517588",
      overnight: "2.7",
      overnightPercent: "0.03",
    });
  });

  it("shows nothing while the lots or price are not a positive number", () => {
    expect(preTradeFigures(product, "long", "90000", "", 10)).toBeNull();
    expect(preTradeFigures(product, "short", "abc", "1", 10)).toBeNull();
    expect(preTradeFigures(product, "short", "100", "0", 10)).toBeNull();
  });
});
