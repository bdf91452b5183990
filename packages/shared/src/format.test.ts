import { describe, expect, it } from "vitest";
import {
  exactDecimals,
  formatDate,
  formatMoney,
  naturalRate,
  numberMarks,
  ratePercent,
  withMarks,
  withUnit,
} from "./format.ts";

describe("formatMoney", () => {
  it("puts a space between the amount and its unit, and groups digits", () => {
    expect(formatMoney("5000", { decimals: 0, unit: "USDT" })).toBe("5,000 USDT");
    expect(formatMoney("5000", { decimals: 2, unit: "USDT" })).toBe("5,000.00 USDT");
    expect(formatMoney("0.5", { decimals: 8, unit: "BTC" })).toBe("0.50000000 BTC");
  });

  it("rounds down to the currency's precision, never up", () => {
    expect(formatMoney("1.999", { decimals: 2 })).toBe("1.99");
    expect(formatMoney("-1.999", { decimals: 2 })).toBe("-1.99");
    expect(formatMoney("-0.001", { decimals: 2 })).toBe("0.00");
  });

  it("keeps every digit of amounts a JS number would round", () => {
    expect(formatMoney("12345678901234567.123456789", { decimals: 9 })).toBe(
      "12,345,678,901,234,567.123456789",
    );
    expect(formatMoney("0.1", { decimals: 18 })).toBe("0.100000000000000000");
  });

  it("uses the locale's group and decimal marks", () => {
    const de = numberMarks("de");
    expect(formatMoney("1234567.5", { decimals: 2, unit: "EUR", marks: de })).toBe("1.234.567,50 EUR");
    expect(formatMoney("1234567.5", { decimals: 1, marks: numberMarks("th") })).toBe("1,234,567.5");
    expect(formatMoney("1234567.5", { decimals: 1, marks: numberMarks("zh-CN") })).toBe("1,234,567.5");
  });
});

describe("withMarks, withUnit and exactDecimals", () => {
  it("groups only the integer part", () => {
    expect(withMarks("1234.56789", { group: ",", decimal: "." })).toBe("1,234.56789");
    expect(withMarks("999", { group: ",", decimal: "." })).toBe("999");
  });

  it("writes no unit when there is none", () => {
    expect(withUnit("1.5", undefined)).toBe("1.5");
    expect(withUnit("1.5", "ETH")).toBe("1.5 ETH");
  });

  it("shows the exact value trimmed between min and max decimals", () => {
    expect(exactDecimals("1.5", 2, 8)).toBe("1.50");
    expect(exactDecimals("0.123456789", 2, 8)).toBe("0.12345678");
  });
});

describe("naturalRate", () => {
  it("turns a rate below 1 round: one BTC in USDT, not a 13-decimal USDT in BTC", () => {
    expect(naturalRate("USDT", "BTC", "0.0000109589041095")).toEqual({
      base: "BTC",
      quote: "USDT",
      rate: "91250.00",
    });
  });

  it("keeps a rate of 1 or more as it is, with about 7 significant digits", () => {
    expect(naturalRate("BTC", "USDT", "91250.123456")).toEqual({
      base: "BTC",
      quote: "USDT",
      rate: "91250.12",
    });
    expect(naturalRate("EUR", "USD", "1.08341234")).toEqual({ base: "EUR", quote: "USD", rate: "1.083412" });
    expect(naturalRate("USDT", "USDC", "1")).toEqual({ base: "USDT", quote: "USDC", rate: "1.000000" });
  });

  it("never divides by zero", () => {
    expect(naturalRate("A", "B", "0")).toEqual({ base: "A", quote: "B", rate: "0" });
  });
});

describe("formatDate", () => {
  it("writes dates in the locale's order", () => {
    const ms = Date.UTC(2026, 10, 25, 12);
    expect(formatDate(ms, "en")).toMatch(/11\/25\/2026/);
    expect(formatDate(ms, "zh-CN")).toMatch(/2026\/11\/25/);
  });
});

describe("ratePercent", () => {
  it("shows a rate as a percentage from its decimal string, never through a JS number", () => {
    // 0.0007 × 100 in floating point reads 0.06999999999999999: the contract form's fee rate once did.
    expect(0.0007 * 100).not.toBe(0.07);
    expect(ratePercent("0.0007")).toBe("0.07");
    expect(ratePercent("0.0005")).toBe("0.05");
    expect(ratePercent("0.825")).toBe("82.5");
    expect(ratePercent("0.005")).toBe("0.5");
    expect(ratePercent("0.00000001")).toBe("0.000001");
    expect(ratePercent("1")).toBe("100");
    expect(ratePercent("0")).toBe("0");
  });
});
