import { zAmount } from "@northstar/shared/contracts/funding";
import { describe, expect, it } from "vitest";
import { fakeT, refusal } from "../../test/fake-t.ts";
import { decimalsRule, depositMinimumRule, fieldRule, requiredRule } from "./amount-rules.ts";

describe("the funding forms' amount rules", () => {
  it("refuses an amount below the deposit minimum, compared as decimals", async () => {
    const rule = depositMinimumRule(fakeT, "10.5", "USDT");
    expect(await refusal(rule, "10.499999")).toBe(
      'errors.DEPOSIT_BELOW_MINIMUM {"min":"10.5","currency":"USDT"}',
    );
    expect(await refusal(rule, "10.5")).toBeUndefined();
    expect(await refusal(rule, "abc")).toBeUndefined();
  });

  it("refuses more decimals than the currency is held to, and waits for the decimals to be known", async () => {
    expect(await refusal(decimalsRule(fakeT, "USDT", 6), "1.1234567")).toBe(
      'funding.common.tooManyDecimals {"currency":"USDT","decimals":6}',
    );
    expect(await refusal(decimalsRule(fakeT, "USDT", 6), "1.123456")).toBeUndefined();
    expect(await refusal(decimalsRule(fakeT, "USDT", undefined), "1.1234567")).toBeUndefined();
  });

  it("names the field in the schema's refusal", async () => {
    expect(await refusal(fieldRule(zAmount, fakeT, "Amount"), "1,5")).toBe(
      'errors.AMOUNT_INVALID {"field":"Amount"}',
    );
    expect(await refusal(fieldRule(zAmount, fakeT, "Amount"), "1.5")).toBeUndefined();
  });

  it("asks for a required field, blank counting as empty", () => {
    expect(requiredRule(fakeT, "Payee")).toMatchObject({
      required: true,
      whitespace: true,
      message: 'errors.FIELD_REQUIRED {"field":"Payee"}',
    });
  });
});
