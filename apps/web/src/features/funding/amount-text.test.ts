import { numberMarks } from "@northstar/shared/format";
import { describe, expect, it } from "vitest";
import { groupDigits, maskCard, percentOf, plainAmount, shorten } from "./amount-text.ts";

describe("amounts as the funding pages write them", () => {
  it("drops the stored trailing zeros, exactly", () => {
    expect(plainAmount("100.500000000000000000")).toBe("100.5");
    expect(plainAmount("0.000000000000000001")).toBe("0.000000000000000001");
    expect(plainAmount(null)).toBe("0");
    expect(plainAmount("not a number")).toBe("not a number");
  });

  it("groups thousands with the reader's marks without touching the decimals", () => {
    const en = numberMarks("en-US");
    expect(groupDigits("200000", en)).toBe("200,000");
    expect(groupDigits("1234567.891011000", en)).toBe("1,234,567.891011");
    expect(groupDigits("999", en)).toBe("999");
    expect(groupDigits("12345678901234567890.5", en)).toBe("12,345,678,901,234,567,890.5");
    // Spanish (the xby interface language) groups with dots and writes the decimal with a comma.
    expect(groupDigits("1234567.5", numberMarks("es-ES"))).toBe("1.234.567,5");
  });

  it("writes a rate as an exact percentage", () => {
    expect(percentOf("0.05")).toBe("5");
    expect(percentOf("0.002")).toBe("0.2");
    expect(percentOf("0.9")).toBe("90");
  });

  it("shortens hashes and masks card numbers", () => {
    expect(shorten("0x1234567890abcdef1234567890")).toBe("0x123456…567890");
    expect(shorten("short")).toBe("short");
    expect(maskCard("6222 0212 3456 7890")).toBe("•••• 7890");
    expect(maskCard("123")).toBe("123");
  });
});
