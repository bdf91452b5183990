import { reconcileLedger } from "@northstar/domain/ledger";
import { translate } from "@northstar/shared/i18n";
import { MoneyDecimal } from "@northstar/shared/money";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectRefusal, expectTrpcRefusal, query, tokenOf } from "../test/fixtures.ts";
import { createHarness, type Harness } from "../test/harness.ts";
import {
  ADDR,
  balanceOf,
  dataOf,
  depositAndConfirm,
  expectLedgerBalanced,
  operatorToken,
  setDepositAddress,
  submitDeposit,
  userIdOf,
} from "../test/money.ts";

/** web/tempLogin demo accounts: funded in the demo book only, expiring, never touching real money. */
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h?.close();
});

const demoLogin = async (amount = "10000", method: "GET" | "POST" = "GET") => {
  const res = await h.call("tempLogin", { amount }, method);
  expect(res.code, res.message).toBe(0);
  return tokenOf(res);
};
type Asset2 = {
  book: string;
  total_usdt: string;
  list: { wallet: string; currency: string; available: string }[];
};
const asset2 = async (token: string) => {
  const res = await h.call("getAsset2", { token }, "GET");
  expect(res.code, res.message).toBe(0);
  return res.data as Asset2;
};
const realTotals = async () =>
  (await reconcileLedger(h.db)).totals.filter((t) => t.book === "real").map((t) => ({ ...t }));

describe("web/tempLogin", () => {
  it("gives a token for an offered amount, like a login, and the demo book holds that amount", async () => {
    const res = await h.call("tempLogin", { amount: "10000", lang: "en" }, "GET");
    expect(res).toMatchObject({ code: 0, event: "login", message: translate("en", "api.loginOk") });
    const token = tokenOf(res);
    const assets = await asset2(token);
    expect([assets.book, assets.total_usdt]).toEqual(["demo", "10000.00"]);
    const usdt = assets.list.find((r) => r.wallet === "exchange" && r.currency === "USDT");
    expect(new MoneyDecimal(usdt?.available ?? "0").equals(10000)).toBe(true);

    const info = (await h.call("info", { token })).data as {
      usdt: string;
      account_kind: string;
      demo_expires_at: number;
    };
    expect([info.usdt, info.account_kind]).toEqual(["10000", "demo"]);
    // demo.ttlDays: 7 days from now.
    expect(Math.abs(info.demo_expires_at - (Date.now() / 1000 + 7 * 86_400))).toBeLessThan(60);

    for (const amount of ["50000", "100000"]) {
      expect((await asset2(await demoLogin(amount, "POST"))).total_usdt).toBe(`${amount}.00`);
    }
  });

  it("refuses an amount that is not offered by policy", async () => {
    const before = (await query<{ n: number }>(h, "select count(*)::int as n from users"))[0]?.n;
    for (const amount of ["12345", "1000000", "0", "abc", "-10000", ""]) {
      const res = await h.call("tempLogin", { amount }, "GET");
      expectRefusal(res, "AMOUNT_INVALID");
      expect(res.message).toBe("Please enter a valid amount");
    }
    expect((await query<{ n: number }>(h, "select count(*)::int as n from users"))[0]?.n).toBe(before);
  });
});

describe("the demo book and the real book", () => {
  it("keeps demo activity out of the real book: real totals unchanged, each book reconciles", async () => {
    const op = await operatorToken(h, "finance");
    await setDepositAddress(h, op, "USDT", "ERC20", ADDR.ERC20);
    const real = await h.registerByEmail();
    await depositAndConfirm(h, real.token, op, "250");
    const before = await realTotals();

    const token = await demoLogin();
    const demoId = await userIdOf(h, token);
    const move = { from: "exchange", to: "contract", currency: "USDT", amount: "1000" };
    dataOf(await h.trpc("transfer.create", move, token));
    const quote = dataOf<{ id: string }>(
      await h.trpc("conversion.createQuote", { from: "USDT", to: "BTC", amount: "900" }, token),
    );
    dataOf(await h.trpc("conversion.create", { quote_id: quote.id }, token));

    expect(await balanceOf(h, demoId, "USDT", "exchange", "demo")).toEqual({ available: "8100", held: "0" });
    expect(await balanceOf(h, demoId, "USDT", "contract", "demo")).toEqual({ available: "1000", held: "0" });
    expect(await balanceOf(h, demoId, "USDT", "exchange", "real")).toEqual({ available: "0", held: "0" });
    const books = await query<{ book: string }>(
      h,
      "select distinct a.book from ledger_accounts a where a.user_id = $1",
      [demoId],
    );
    expect(books).toEqual([{ book: "demo" }]);
    const [turnover] = await query<{ book: string; turnover: string }>(
      h,
      "select book, turnover_usdt::text as turnover from wallet_transfers where user_id = $1 and kind = 'convert'",
      [demoId],
    );
    expect([turnover?.book, new MoneyDecimal(turnover?.turnover ?? "1").isZero()]).toEqual(["demo", true]);

    expect(await realTotals()).toEqual(before);
    const report = await expectLedgerBalanced(h);
    for (const t of report.totals) {
      expect(new MoneyDecimal(t.users).plus(t.system).isZero(), `${t.book} ${t.currency}`).toBe(true);
    }
    expect((await asset2(real.token)).book).toBe("real");
    expect((await asset2(real.token)).total_usdt).toBe("250.00");
  });

  it("does not let a demo account deposit or withdraw", async () => {
    const token = await demoLogin();
    expectTrpcRefusal(await submitDeposit(h, token, { amount: "100" }), "REAL_ACCOUNT_REQUIRED");
    const res = await h.trpc(
      "withdrawal.create",
      { currency: "USDT", address_id: 1, amount: "100", trade_password: "123456" },
      token,
    );
    expectTrpcRefusal(res, "REAL_ACCOUNT_REQUIRED");
    expect(res.body.error?.message).toBe("Please switch to a real account to do this");
    const demoId = await userIdOf(h, token);
    expect(await balanceOf(h, demoId, "USDT", "exchange", "demo")).toEqual({ available: "10000", held: "0" });
  });
});

describe("an expired demo account", () => {
  it("answers DEMO_EXPIRED to every authed call, and a new one can be generated", async () => {
    const token = await demoLogin();
    await query(h, "update users set demo_expires_at = now() - interval '1 minute' where id = $1", [
      await userIdOf(h, token),
    ]);
    const text = "The virtual account has expired, please regenerate it";
    for (const name of ["info", "getAsset2", "hasTpassword"]) {
      const res = await h.call(name, { token }, "GET");
      expectRefusal(res, "DEMO_EXPIRED");
      expect(res.message).toBe(text);
    }
    for (const [path, kind] of [
      ["asset.get", "query"],
      ["withdrawal.terms", "query"],
      ["identity.get", "query"],
    ] as const) {
      expectTrpcRefusal(await h.trpc(path, undefined, token, kind), "DEMO_EXPIRED", { message: text });
    }
    expectTrpcRefusal(
      await h.trpc(
        "transfer.create",
        { from: "exchange", to: "contract", currency: "USDT", amount: "1" },
        token,
      ),
      "DEMO_EXPIRED",
    );
    // Regenerate: a new demo account, a new token.
    const fresh = await demoLogin();
    expect((await asset2(fresh)).total_usdt).toBe("10000.00");
  });
});
