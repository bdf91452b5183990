import { describe, expect, it } from "vitest";
import {
  amountForShare,
  estimate,
  floorToStep,
  type MarketQuote,
  onGrid,
  positive,
  protectionPrice,
  shareOf,
} from "./spot-math.ts";

const quote: MarketQuote = {
  bestBid: "99.5",
  bestAsk: "100",
  last: "99.8",
  makerFee: "0.001",
  takerFee: "0.002",
  marketProtection: "0.05",
  tickSize: "0.01",
};

/** A positive decimal for the test's inputs. */
function d(value: string) {
  const parsed = positive(value);
  if (!parsed) {
    throw new Error(`not a positive decimal: ${value}`);
  }
  return parsed;
}

describe("spot form arithmetic", () => {
  it("checks the grid in decimals", () => {
    expect(onGrid(d("0.003"), "0.001")).toBe(true);
    expect(onGrid(d("0.0035"), "0.001")).toBe(false);
    expect(floorToStep(d("1.23456"), "0.001")).toBe("1.234");
    expect(positive("0")).toBeNull();
    expect(positive("abc")).toBeNull();
  });

  it("estimates a resting limit buy as a maker, its fee in the base currency", () => {
    const e = estimate({ side: "buy", type: "limit", by: "quantity", price: "90", quantity: "2" }, quote);
    expect(e.role).toBe("maker");
    expect(e.total?.toFixed()).toBe("180");
    expect(e.fee?.toFixed()).toBe("0.002");
    expect(e.pay?.toFixed()).toBe("180");
  });

  it("estimates a crossing limit sell as a taker, its fee in the quote currency", () => {
    const e = estimate({ side: "sell", type: "limit", by: "quantity", price: "99", quantity: "1" }, quote);
    expect(e.role).toBe("taker");
    expect(e.fee?.toFixed()).toBe("0.198");
    expect(e.pay?.toFixed()).toBe("1");
  });

  it("holds a market buy by quantity at the protection price, rounded up to the tick", () => {
    expect(protectionPrice({ ...quote, bestAsk: "100.001" })?.toFixed()).toBe("105.01");
    const e = estimate({ side: "buy", type: "market", by: "quantity", quantity: "2" }, quote);
    expect(e.total?.toFixed()).toBe("200");
    expect(e.maxTotal?.toFixed()).toBe("210");
    expect(e.pay?.toFixed()).toBe("210");
  });

  it("estimates the quantity of a market buy by total", () => {
    const e = estimate({ side: "buy", type: "market", by: "total", quoteAmount: "250" }, quote);
    expect(e.quantity?.toFixed()).toBe("2.5");
    expect(e.pay?.toFixed()).toBe("250");
  });

  it("turns a share of the balance into an amount on the grid", () => {
    const grid = { lotSize: "0.001", quoteDecimals: 2 };
    const limitBuy = { side: "buy", type: "limit", by: "quantity", price: "90" } as const;
    expect(amountForShare(limitBuy, 50, "1000", quote, grid)).toEqual({ field: "quantity", value: "5.555" });
    const sell = { side: "sell", type: "limit", by: "quantity" } as const;
    expect(amountForShare(sell, 25, "1.0005", quote, grid)).toEqual({ field: "quantity", value: "0.25" });
    const byTotal = { side: "buy", type: "market", by: "total" } as const;
    expect(amountForShare(byTotal, 100, "12.345", quote, grid)).toEqual({
      field: "quote_amount",
      value: "12.34",
    });
    expect(amountForShare(limitBuy, 0, "1000", quote, grid)).toEqual({ field: "quantity", value: "" });
    expect(shareOf(positive("500"), "1000")).toBe(50);
    expect(shareOf(positive("5000"), "1000")).toBe(100);
  });
});
