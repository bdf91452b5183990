import { describe, expect, it } from "vitest";
import { fakeT, refusal } from "../../test/fake-t.ts";
import type { AssetsData, CurrencyInfo } from "./assets-data.ts";
import { amountLimitRules, available, pickCurrency } from "./transfer-rules.ts";

const currencies = [
  { code: "USDT", name: "Tether", decimals: 6 },
  { code: "BTC", name: "Bitcoin", decimals: 8 },
] as CurrencyInfo[];

describe("the transfer and conversion amount rules", () => {
  const [usdtRule, balanceRule] = amountLimitRules(fakeT, currencies[0], "1500.25", "USDT");

  it("refuses more decimals than the currency holds", async () => {
    expect(await refusal(usdtRule, "1.1234567")).toBe(
      'assets.tooManyDecimals {"decimals":6,"currency":"USDT"}',
    );
    expect(await refusal(usdtRule, "1.123456")).toBeUndefined();
  });

  it("counts decimals as the server does: trailing zeros carry no precision", async () => {
    const [oneDecimal] = amountLimitRules(
      fakeT,
      { code: "X", name: "X", decimals: 1 } as CurrencyInfo,
      "10",
      "X",
    );
    expect(await refusal(oneDecimal, "1.50")).toBeUndefined();
    expect(await refusal(oneDecimal, "1.55")).toBe('assets.tooManyDecimals {"decimals":1,"currency":"X"}');
  });

  it("refuses more than the balance, compared exactly in decimals", async () => {
    expect(await refusal(balanceRule, "1500.250001")).toBe("errors.INSUFFICIENT_BALANCE");
    expect(await refusal(balanceRule, "1500.25")).toBeUndefined();
    // a float would call 0.1 + 0.2 more than 0.3; a decimal balance of 0.3 takes 0.3
    const [, tight] = amountLimitRules(fakeT, currencies[0], "0.3", "USDT");
    expect(await refusal(tight, "0.3")).toBeUndefined();
  });

  it("leaves an empty or malformed amount to the schema's rule", async () => {
    expect(await refusal(balanceRule, "")).toBeUndefined();
    expect(await refusal(balanceRule, "9e9")).toBeUndefined();
  });
});

describe("the transfer page's currency and balance", () => {
  it("picks the first wanted currency that exists, in upper case, else the first held", () => {
    expect(pickCurrency(currencies, "eth", "btc")).toBe("BTC");
    expect(pickCurrency(currencies, null, undefined)).toBe("USDT");
    expect(pickCurrency([], "btc")).toBe("USDT");
  });

  it("reads the available balance of one wallet and currency, zero when there is none", () => {
    const assets = {
      rows: [
        { wallet: "exchange", currency: "USDT", available: "10.5" },
        { wallet: "contract", currency: "USDT", available: "3" },
      ],
    } as unknown as AssetsData;
    expect(available(assets, "contract", "USDT")).toBe("3");
    expect(available(assets, "exchange", "BTC")).toBe("0");
  });
});
