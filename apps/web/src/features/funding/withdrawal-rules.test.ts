import { numberMarks } from "@northstar/shared/format";
import { describe, expect, it } from "vitest";
import { fakeT, refusal } from "../../test/fake-t.ts";
import { groupDigits } from "./amount-text.ts";
import { googleCodeRule, quote, withdrawAmountRule, withdrawalBlockers } from "./withdrawal-rules.ts";

describe("the withdrawal form's fee preview", () => {
  it("shows the fee the server charges: 5% rounded up, the rest received", () => {
    expect(quote("100.01", "0.05", 2)).toEqual({ fee: "5.01", received: "95" });
    expect(quote("0.000021", "0.05", 6)).toEqual({ fee: "0.000002", received: "0.000019" });
  });

  it("shows nothing until the amount and the currency's decimals are usable", () => {
    expect(quote(undefined, "0.05", 6)).toBeNull();
    expect(quote("100", "0.05", undefined)).toBeNull();
    expect(quote("1.", "0.05", 6)).toBeNull();
    expect(quote("0", "0.05", 6)).toBeNull();
    expect(quote("1.0000001", "0.05", 6)).toBeNull();
  });
});

const en = (value: string) => groupDigits(value, numberMarks("en-US"));

describe("the withdrawal amount rule", () => {
  const usdt = { currency: "USDT", available: "5000", minUsdt: "100", maxUsdt: "200000" };

  it("accepts an amount within the balance and the limits", async () => {
    expect(await refusal(withdrawAmountRule(fakeT, usdt, en), "100")).toBeUndefined();
    expect(await refusal(withdrawAmountRule(fakeT, usdt, en), "5000")).toBeUndefined();
  });

  it("refuses more than the balance, compared in decimals", async () => {
    expect(await refusal(withdrawAmountRule(fakeT, usdt, en), "5000.000001")).toBe(
      "errors.INSUFFICIENT_BALANCE",
    );
  });

  it("does not judge the balance before it is known", async () => {
    const rule = withdrawAmountRule(fakeT, { ...usdt, available: undefined }, en);
    expect(await refusal(rule, "150000")).toBeUndefined();
  });

  it("holds USDT to the minimum and maximum, other currencies not", async () => {
    const rich = { ...usdt, available: "1000000" };
    expect(await refusal(withdrawAmountRule(fakeT, rich, en), "99.99")).toBe(
      "errors.WITHDRAW_BELOW_MINIMUM (100 USDT)",
    );
    expect(await refusal(withdrawAmountRule(fakeT, rich, en), "200000.01")).toBe(
      'errors.WITHDRAW_ABOVE_MAXIMUM {"max":"200,000"}',
    );
    expect(await refusal(withdrawAmountRule(fakeT, { ...rich, currency: "BTC" }, en), "0.5")).toBeUndefined();
  });

  it("leaves a malformed amount to the format rule", async () => {
    expect(await refusal(withdrawAmountRule(fakeT, usdt, en), "abc")).toBeUndefined();
    expect(await refusal(withdrawAmountRule(fakeT, usdt, en), "")).toBeUndefined();
  });
});

describe("what blocks every withdrawal today", () => {
  const open = {
    windowOpen: true,
    window: { start: 12, end: 24 },
    usedToday: 0,
    perDay: 1,
    turnover: { met: true, required: "0", done: "0", ratio: "0.9" },
  };

  it("is nothing when the window is open, the count left and the turnover met", () => {
    expect(withdrawalBlockers(open, fakeT, en)).toEqual([]);
  });

  it("names the closed window, the day's count and the missing turnover", () => {
    const blocked = withdrawalBlockers(
      {
        ...open,
        windowOpen: false,
        usedToday: 1,
        turnover: { met: false, required: "9000", done: "4500.50", ratio: "0.9" },
      },
      fakeT,
      en,
    );
    expect(blocked).toEqual([
      'errors.WITHDRAW_OUTSIDE_WINDOW {"start":12,"end":24}',
      'errors.WITHDRAW_DAILY_LIMIT {"count":1}',
      'errors.WITHDRAW_TURNOVER_REQUIRED {"required":"9,000","done":"4,500.5","ratio":"90"}',
    ]);
  });
});

describe("the Google code rule", () => {
  it("asks for the code, then for six digits", async () => {
    expect(await refusal(googleCodeRule(fakeT), "")).toBe("errors.GOOGLE_CODE_REQUIRED");
    expect(await refusal(googleCodeRule(fakeT), "12345")).toBe("errors.GOOGLE_CODE_WRONG");
    expect(await refusal(googleCodeRule(fakeT), "123456")).toBeUndefined();
  });
});
