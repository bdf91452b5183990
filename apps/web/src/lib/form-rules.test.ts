import { zTradePassword } from "@northstar/shared/contracts/common";
import { zAmount } from "@northstar/shared/contracts/funding";
import { instrumentInputSchema } from "@northstar/shared/markets";
import { describe, expect, it } from "vitest";
import { fakeT, refusal } from "../test/fake-t.ts";
import { passwordLengthRule, sameAs, zodRule } from "./form-rules.ts";

describe("zodRule: the web refuses what the server refuses, with the server's code", () => {
  it("accepts a value the shared schema accepts", async () => {
    expect(await refusal(zodRule(zAmount, fakeT, "amount"), "12.5")).toBeUndefined();
  });

  it("translates the schema's error code and names the field", async () => {
    expect(await refusal(zodRule(zAmount, fakeT, "amount"), "12,5")).toBe(
      'errors.AMOUNT_INVALID {"field":"fields.amount"}',
    );
    expect(await refusal(zodRule(zAmount, fakeT, "amount"), "123456789012345678901")).toBe(
      'errors.AMOUNT_TOO_LARGE {"field":"fields.amount"}',
    );
    expect(await refusal(zodRule(zTradePassword, fakeT, "tradePassword"), "12a456")).toMatch(
      /^errors\.[A-Z_]+ /,
    );
  });

  it("treats an empty field as an empty string, so a required schema refuses it", async () => {
    expect(await refusal(zodRule(zAmount, fakeT, "amount"), undefined)).toMatch(/^errors\.AMOUNT_INVALID/);
  });

  it("lets an optional field stay empty, and still checks what is typed into it", async () => {
    const sourceSymbol = instrumentInputSchema.shape.sourceSymbol;
    const rule = zodRule(sourceSymbol, fakeT, "sourceSymbol", {}, { optional: true });
    for (const empty of [null, undefined, ""]) {
      expect(await refusal(rule, empty)).toBeUndefined();
    }
    expect(await refusal(rule, "EURUSD=X")).toBeUndefined();
    expect(await refusal(rule, "EUR USD")).toBe('errors.FIELD_INVALID {"field":"fields.sourceSymbol"}');
    // Not optional, the same empty value is refused.
    expect(await refusal(zodRule(sourceSymbol, fakeT, "sourceSymbol"), "")).toMatch(/^errors\.FIELD_INVALID/);
  });
});

describe("sameAs: a confirmation must equal the field it confirms", () => {
  const form = (password: string) => ({
    getFieldValue: (name: string) => (name === "password" ? password : ""),
  });

  it("refuses a different value and accepts the same", async () => {
    const rule = sameAs("password", fakeT);
    expect(await refusal(rule(form("abc123")), "abc124")).toBe("errors.PASSWORDS_DIFFER");
    expect(await refusal(rule(form("abc123")), "abc123")).toBeUndefined();
  });

  it("leaves an empty confirmation to the required rule", async () => {
    expect(await refusal(sameAs("password", fakeT)(form("abc123")), "")).toBeUndefined();
  });
});

describe("passwordLengthRule: the policy's bounds, inclusive", () => {
  const rule = passwordLengthRule(fakeT, 6, 12);
  it("refuses empty, too short and too long; accepts the bounds", async () => {
    expect(await refusal(rule, "")).toBe("errors.ACCOUNT_OR_PASSWORD_EMPTY");
    expect(await refusal(rule, "12345")).toBe('errors.PASSWORD_LENGTH {"min":6,"max":12}');
    expect(await refusal(rule, "1234567890123")).toBe('errors.PASSWORD_LENGTH {"min":6,"max":12}');
    expect(await refusal(rule, "123456")).toBeUndefined();
    expect(await refusal(rule, "123456789012")).toBeUndefined();
  });
});
