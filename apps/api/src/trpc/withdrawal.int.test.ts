import { authenticator } from "otplib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectOk, expectTrpcRefusal, query } from "../test/fixtures.ts";
import { createHarness, type Harness } from "../test/harness.ts";
import {
  ADDR,
  addAddress,
  admin,
  balanceOf,
  dataOf,
  depositAndConfirm,
  grant,
  norm,
  operatorToken,
  policy,
  setDepositAddress,
  setTradePassword,
  userIdOf,
} from "../test/money.ts";

/**
 * The rules of SPEC section 9 through the API, one refusal each with its translated text. The real
 * clock applies here, so the Hong Kong window is opened all day; the window itself is tested with
 * fixed instants in packages/domain/src/funding/withdrawals.int.test.ts.
 */
let h: Harness;
let op: string;
beforeAll(async () => {
  h = await createHarness();
  op = await operatorToken(h, "finance");
  await setDepositAddress(h, op, "USDT", "ERC20", ADDR.ERC20);
  await policy(h, "funding.withdraw.window", { start: 0, end: 24, timeZone: "Asia/Hong_Kong" });
});
afterAll(async () => {
  await h?.close();
});

type Ready = { token: string; password: string; userId: number; addressId: number };
/** A user with a trade password (123456), an ERC20 USDT address and `funds` USDT without turnover due. */
async function readyUser(funds = "0"): Promise<Ready> {
  const u = await h.registerByEmail();
  await setTradePassword(h, u);
  const userId = await userIdOf(h, u.token);
  if (funds !== "0") {
    await grant(h, userId, funds);
  }
  return { ...u, userId, addressId: await addAddress(h, u.token, "ERC20") };
}
const withdraw = (u: Ready, amount: string, extra: Record<string, unknown> = {}) =>
  h.trpc(
    "withdrawal.create",
    { currency: "USDT", address_id: u.addressId, amount, trade_password: "123456", ...extra },
    u.token,
  );
const terms = async (u: { token: string }) =>
  dataOf<{
    perDay: number;
    usedToday: number;
    windowOpen: boolean;
    turnover: { ratio: string; required: string; done: string; met: boolean };
    tradePasswordSet: boolean;
    googleBound: boolean;
    chains: Record<string, string[]>;
    feeRate: string;
    minUsdt: string;
    maxUsdt: string;
  }>(await h.trpc("withdrawal.terms", undefined, u.token, "query"));
const withdrawalCount = async (userId: number) =>
  (
    await query<{ n: number }>(h, "select count(*)::int as n from withdrawals where user_id = $1", [userId])
  )[0]?.n;

describe("withdrawal.create: the rules of SPEC section 9", () => {
  it("asks for the trade password before anything else", async () => {
    const u = await h.registerByEmail();
    const addressId = await addAddress(h, u.token, "ERC20");
    expect(await terms(u)).toMatchObject({ tradePasswordSet: false, windowOpen: true });
    const res = await h.trpc(
      "withdrawal.create",
      { currency: "USDT", address_id: addressId, amount: "100", trade_password: "123456" },
      u.token,
    );
    expectTrpcRefusal(res, "TRADE_PASSWORD_NOT_SET");
    expect(res.body.error?.message).toBe("Please set the transaction password in the security centre");
  });

  it("allows 2 applications a day; the third is refused, and a cancelled one does not count", async () => {
    const u = await readyUser("1000");
    const first = dataOf<{ id: number }>(await withdraw(u, "100"));
    expectOk(await withdraw(u, "100"));
    expectTrpcRefusal(await withdraw(u, "100"), "WITHDRAW_DAILY_LIMIT", { params: { count: 2 } });
    expect(await terms(u)).toMatchObject({ perDay: 2, usedToday: 2 });
    expect(await balanceOf(h, u.userId)).toEqual({ available: "800", held: "200" });

    expectOk(await h.trpc("withdrawal.cancel", { id: first.id }, u.token));
    expect(await terms(u)).toMatchObject({ usedToday: 1 });
    expectOk(await withdraw(u, "100"));
    expectTrpcRefusal(await withdraw(u, "100"), "WITHDRAW_DAILY_LIMIT", { params: { count: 2 } });
    expect(await balanceOf(h, u.userId)).toEqual({ available: "800", held: "200" });
    expect(await withdrawalCount(u.userId)).toBe(3);
  });

  it("refuses below 100 and above 200,000 USDT, and accepts both limits", async () => {
    const u = await readyUser("200100");
    const below = await withdraw(u, "99.999999");
    expectTrpcRefusal(below, "WITHDRAW_BELOW_MINIMUM");
    expect(below.body.error?.message).toBe("Amounts below the minimum cannot be withdrawn");
    expectTrpcRefusal(await withdraw(u, "200000.000001"), "WITHDRAW_ABOVE_MAXIMUM", {
      params: { max: "200000" },
    });
    expect(await terms(u)).toMatchObject({ minUsdt: "100", maxUsdt: "200000", usedToday: 0 });
    expectOk(await withdraw(u, "100"));
    expectOk(await withdraw(u, "200000"));
    expect(await balanceOf(h, u.userId)).toEqual({ available: "0", held: "200100" });
  });

  it("lets USDT leave on ERC20 only", async () => {
    const u = await readyUser("500");
    const trc20 = await addAddress(h, u.token, "TRC20");
    expect((await terms(u)).chains).toEqual({ USDT: ["ERC20"] });
    expectTrpcRefusal(await withdraw(u, "100", { address_id: trc20 }), "WITHDRAW_CHAIN_NOT_ALLOWED", {
      params: { currency: "USDT", chains: "ERC20" },
    });
    expect(await balanceOf(h, u.userId)).toEqual({ available: "500", held: "0" });
    expect(await withdrawalCount(u.userId)).toBe(0);
  });

  it("applies the currency rule to bank withdrawals too: no BTC by wire while only USDT may leave", async () => {
    const u = await readyUser("500");
    await grant(h, u.userId, "1", "BTC");
    const card = dataOf<{ id: number }>(
      await h.trpc(
        "bankCard.create",
        { bank_name: "Bank", account: "Holder", card_id: "GB29NWBK60161331926819", payee_name: "Holder" },
        u.token,
      ),
    ).id;
    const byWire = (currency: string, amount: string) =>
      h.trpc(
        "withdrawal.create",
        { method: "bank", currency, bank_card_id: card, amount, trade_password: "123456" },
        u.token,
      );
    const res = await byWire("BTC", "0.01");
    expectTrpcRefusal(res, "WITHDRAW_CURRENCY_NOT_ALLOWED", {
      params: { currency: "BTC", currencies: "USDT" },
    });
    expect(res.body.error?.data.field).toBe("currency");
    expect(await balanceOf(h, u.userId, "BTC")).toEqual({ available: "1", held: "0" });
    expect(await withdrawalCount(u.userId)).toBe(0);
    // The currency the policy allows still leaves by wire.
    expectOk(await byWire("USDT", "100"));
  });

  it("uses only the user's own, undeleted addresses", async () => {
    const u = await readyUser("500");
    const other = await readyUser();
    expectTrpcRefusal(await withdraw(u, "100", { address_id: other.addressId }), "NOT_FOUND");
    expectOk(await h.trpc("withdrawalAddress.delete", { id: u.addressId }, u.token));
    expectTrpcRefusal(await withdraw(u, "100"), "NOT_FOUND");
    expect(await withdrawalCount(u.userId)).toBe(0);
  });

  it("requires 90% of deposits to be turned over first, and shows the progress in the terms", async () => {
    const u = await h.registerByEmail();
    await setTradePassword(h, u);
    const ready: Ready = {
      ...u,
      userId: await userIdOf(h, u.token),
      addressId: await addAddress(h, u.token),
    };
    await depositAndConfirm(h, u.token, op, "1000");
    expect((await terms(u)).turnover).toEqual({ ratio: "0.9", required: "900.00", done: "0.00", met: false });
    const refusal = { required: "900.00", done: "0.00", ratio: "90" };
    expectTrpcRefusal(await withdraw(ready, "100"), "WITHDRAW_TURNOVER_REQUIRED", { params: refusal });

    const convert = async (amount: string) => {
      const input = { from: "USDT", to: "BTC", amount };
      const quote = dataOf<{ id: string }>(await h.trpc("conversion.createQuote", input, u.token));
      expectOk(await h.trpc("conversion.create", { quote_id: quote.id }, u.token));
    };
    await convert("899.99");
    expect((await terms(u)).turnover).toMatchObject({ done: "899.99", met: false });
    expectTrpcRefusal(await withdraw(ready, "100"), "WITHDRAW_TURNOVER_REQUIRED", {
      params: { ...refusal, done: "899.99" },
    });
    await convert("0.01");
    expect((await terms(u)).turnover).toEqual({
      ratio: "0.9",
      required: "900.00",
      done: "900.00",
      met: true,
    });
    expectOk(await withdraw(ready, "100"));
    expect(await balanceOf(h, ready.userId)).toEqual({ available: "0", held: "100" });
  });

  it("refuses a wrong trade password, holding nothing", async () => {
    const u = await readyUser("300");
    const res = await withdraw(u, "100", { trade_password: "654321" });
    expectTrpcRefusal(res, "TRADE_PASSWORD_WRONG");
    expect(res.body.error?.data.field).toBe("trade_password");
    expectTrpcRefusal(await withdraw(u, "100", { trade_password: "12345x" }), "TRADE_PASSWORD_FORMAT");
    expect(await balanceOf(h, u.userId)).toEqual({ available: "300", held: "0" });
    expect(await withdrawalCount(u.userId)).toBe(0);
  });

  it("asks for the Google Authenticator code once it is bound, and checks it", async () => {
    const u = await readyUser("300");
    const { secret, uri } = dataOf<{ secret: string; uri: string }>(
      await h.trpc("googleAuth.start", undefined, u.token),
    );
    expect(uri).toContain(`secret=${secret}`);
    // Not bound until a first code is proved: no code needed yet.
    expect(await terms(u)).toMatchObject({ googleBound: false });
    expectTrpcRefusal(await h.trpc("googleAuth.confirm", { code: "12345" }, u.token), "GOOGLE_CODE_WRONG");
    expectOk(await h.trpc("googleAuth.confirm", { code: authenticator.generate(secret) }, u.token));
    expect(dataOf(await h.trpc("googleAuth.status", undefined, u.token, "query"))).toEqual({ bound: true });
    expectTrpcRefusal(await h.trpc("googleAuth.start", undefined, u.token), "GOOGLE_ALREADY_BOUND");
    expect(await terms(u)).toMatchObject({ googleBound: true });

    expectTrpcRefusal(await withdraw(u, "100"), "GOOGLE_CODE_REQUIRED");
    const wrong = ["000000", "111111", "222222"].find((c) => !authenticator.check(c, secret)) ?? "333333";
    expectTrpcRefusal(await withdraw(u, "100", { google_code: wrong }), "GOOGLE_CODE_WRONG");
    expectTrpcRefusal(await withdraw(u, "100", { google_code: "12ab56" }), "GOOGLE_CODE_WRONG");
    expect(await balanceOf(h, u.userId)).toEqual({ available: "300", held: "0" });
    // The binding spent this step's code; a code is accepted once, so the next step's code is used.
    const next = authenticator.clone({ epoch: Date.now() + 30_000 }).generate(secret);
    expectOk(await withdraw(u, "100", { google_code: next }));
    expect(await balanceOf(h, u.userId)).toEqual({ available: "200", held: "100" });
  });

  it("refuses more than the available balance with INSUFFICIENT_BALANCE, leaving no row behind", async () => {
    const u = await readyUser("150");
    const res = await withdraw(u, "200");
    expectTrpcRefusal(res, "INSUFFICIENT_BALANCE");
    expect(res.body.error?.message).toBe("Insufficient balance, please top up first");
    expect(await balanceOf(h, u.userId)).toEqual({ available: "150", held: "0" });
    expect(await withdrawalCount(u.userId)).toBe(0);
    expect(await terms(u)).toMatchObject({ usedToday: 0 });
    // Held funds are not available twice.
    expectOk(await withdraw(u, "100"));
    expectTrpcRefusal(await withdraw(u, "100"), "INSUFFICIENT_BALANCE");
  });

  it("follows an operator's decimal overrides of the minimum, maximum and fee rate", async () => {
    const chief = await operatorToken(h, "admin");
    const set = async (key: string, value: unknown) =>
      expectOk(await admin(h, "setPolicy", { key, value }, chief));
    await set("funding.withdraw.minUsdt", "50.5");
    await set("funding.withdraw.maxUsdt", "60");
    await set("funding.withdraw.feeRate", "0.01");
    try {
      const u = await readyUser("100");
      expect(dataOf(await h.trpc("policy.getPublic", undefined, undefined, "query"))).toMatchObject({
        "funding.withdraw.minUsdt": "50.5",
        "funding.withdraw.maxUsdt": "60",
        "funding.withdraw.feeRate": "0.01",
      });
      expect(await terms(u)).toMatchObject({ minUsdt: "50.5", maxUsdt: "60", feeRate: "0.01" });
      expectTrpcRefusal(await withdraw(u, "50.4"), "WITHDRAW_BELOW_MINIMUM");
      expectTrpcRefusal(await withdraw(u, "60.01"), "WITHDRAW_ABOVE_MAXIMUM", { params: { max: "60" } });
      const w = dataOf<{ fee: string; received: string }>(await withdraw(u, "60"));
      expect([norm(w.fee), norm(w.received)]).toEqual(["0.6", "59.4"]);
    } finally {
      // The maximum first: a minimum above the maximum in force is refused.
      await set("funding.withdraw.maxUsdt", "200000");
      await set("funding.withdraw.minUsdt", "100");
      await set("funding.withdraw.feeRate", "0.05");
    }
  });

  it("refuses malformed amounts before any rule", async () => {
    const u = await readyUser("300");
    for (const amount of ["0", "-100", "1e3", "abc", "100.0000000000000000001"]) {
      expectTrpcRefusal(await withdraw(u, amount), "AMOUNT_INVALID");
    }
    // USDT is held to 6 decimals: a finer amount cannot leave.
    expectTrpcRefusal(await withdraw(u, "100.0000001"), "AMOUNT_TOO_PRECISE", {
      params: { field: "Amount", decimals: 6 },
    });
    expect(await withdrawalCount(u.userId)).toBe(0);
  });
});
