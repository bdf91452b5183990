import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "../test/harness.ts";
import { ADDR, dataOf, operatorToken, setDepositAddress } from "../test/money.ts";

/** The home page's payment-method count: what is configured, readable by visitors. */
let h: Harness;
let op: string;
beforeAll(async () => {
  h = await createHarness();
  op = await operatorToken(h, "finance");
});
afterAll(async () => {
  await h?.close();
});

const methods = async () =>
  dataOf<{ count: number }>(await h.trpc("deposit.methods", undefined, undefined, "query")).count;

describe("deposit.methods", () => {
  it("counts the enabled deposit addresses (currency and chain) for a visitor, and no more", async () => {
    const before = await methods();
    await setDepositAddress(h, op, "USDT", "TRC20", ADDR.TRC20);
    await setDepositAddress(h, op, "BTC", "BTC", ADDR.BTC);
    expect(await methods()).toBe(before + 2);
    // A replaced address for the same currency and chain is still one method.
    await setDepositAddress(h, op, "BTC", "BTC", ADDR.BTC);
    expect(await methods()).toBe(before + 2);
  });
});
