import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectOk, expectRefusal, expectTrpcRefusal, query } from "../test/fixtures.ts";
import { createHarness, type Harness } from "../test/harness.ts";
import {
  ADDR,
  balanceOf,
  dataOf,
  depositAndConfirm,
  expectLedgerBalanced,
  grant,
  norm,
  operatorToken,
  policy,
  setDepositAddress,
  systemBalance,
  userIdOf,
} from "../test/money.ts";

/** Currency conversion, the asset screens (tRPC and web/getAsset2), money records, web/info's usdt. */
let h: Harness;
let op: string;
beforeAll(async () => {
  h = await createHarness();
  op = await operatorToken(h, "finance");
  await setDepositAddress(h, op, "USDT", "ERC20", ADDR.ERC20);
});
afterAll(async () => {
  await h?.close();
});

type Quote = { from: string; to: string; amount: string; price: string; received: string; spread: string };
const quote = async (token: string, from: string, to: string, amount: string) =>
  dataOf<Quote>(await h.trpc("conversion.quote", { from, to, amount }, token, "query"));
/** A firm quote: what conversion.create will convert, exactly. */
const firmQuote = async (token: string, from: string, to: string, amount: string) =>
  dataOf<Quote & { id: string; expires_at: string; seconds: number }>(
    await h.trpc("conversion.createQuote", { from, to, amount }, token),
  );

describe("conversion", () => {
  it("quotes with a 0.2% spread against the user, received rounded down to the currency's decimals", async () => {
    const u = await h.registerByEmail();
    // 1 BTC = 90,000 USDT: mid 1/90000 = 0.0000111111…; less 0.2% = 0.0000110888…, to 18 decimals.
    const q = await quote(u.token, "USDT", "BTC", "1000");
    expect(q).toEqual({
      from: "USDT",
      to: "BTC",
      amount: "1000",
      price: "0.000011088888888888",
      // 0.011088888888888 BTC, rounded down to BTC's 8 decimals.
      received: "0.01108888",
      spread: "0.002",
    });
    expect((await quote(u.token, "USDT", "BTC", "1")).received).toBe("0.00001108");
    expect(await quote(u.token, "BTC", "USDT", "0.01108888")).toMatchObject({
      price: "89820",
      // 996.0032016 USDT, rounded down to USDT's 6 decimals.
      received: "996.003201",
    });
    expectTrpcRefusal(
      await h.trpc("conversion.quote", { from: "USDT", to: "BTC", amount: "0.00000001" }, u.token, "query"),
      "AMOUNT_TOO_PRECISE",
      { params: { field: "Amount", decimals: 6 } },
    );
    expectTrpcRefusal(
      await h.trpc("conversion.quote", { from: "USDT", to: "USDT", amount: "1" }, u.token, "query"),
      "SAME_WALLET",
    );
    expectTrpcRefusal(
      await h.trpc("conversion.quote", { from: "USDT", to: "XYZ", amount: "1" }, u.token, "query"),
      "CURRENCY_UNSUPPORTED",
    );
  });

  it("converts at the quoted price through the house account, and back, with the ledger balanced", async () => {
    const u = await h.registerByEmail();
    const userId = await userIdOf(h, u.token);
    await grant(h, userId, "1000");
    const [houseUsdt, houseBtc] = [
      await systemBalance(h, "house", "USDT"),
      await systemBalance(h, "house", "BTC"),
    ];
    const q = await firmQuote(u.token, "USDT", "BTC", "1000");
    const done = dataOf<{ price: string; received: string; kind: string }>(
      await h.trpc("conversion.create", { quote_id: q.id }, u.token),
    );
    expect([done.kind, norm(done.price), norm(done.received)]).toEqual(["convert", q.price, "0.01108888"]);
    expect(await balanceOf(h, userId, "USDT")).toEqual({ available: "0", held: "0" });
    expect(await balanceOf(h, userId, "BTC")).toEqual({ available: "0.01108888", held: "0" });

    const back = await firmQuote(u.token, "BTC", "USDT", "0.01108888");
    expectOk(await h.trpc("conversion.create", { quote_id: back.id }, u.token));
    expect(await balanceOf(h, userId, "BTC")).toEqual({ available: "0", held: "0" });
    expect(await balanceOf(h, userId, "USDT")).toEqual({ available: "996.003201", held: "0" });
    // The house keeps the spread: 1000 − 996.003201 USDT.
    expect(await systemBalance(h, "house", "USDT")).toBe(norm(String(Number(houseUsdt) + 3.996799)));
    expect(await systemBalance(h, "house", "BTC")).toBe(houseBtc);
    await expectLedgerBalanced(h);
  });

  it("credits the confirmed quote although the price moved, and refuses another user's quote", async () => {
    const u = await h.registerByEmail();
    const userId = await userIdOf(h, u.token);
    await grant(h, userId, "200");
    const firm = await firmQuote(u.token, "USDT", "ETH", "100");
    // The price of the moment moves against the user (spread 0.2% → 1%): the quote confirmed holds.
    await policy(h, "funding.convert.spread", "0.01");
    const now = await quote(u.token, "USDT", "ETH", "100");
    expect(now.received).not.toBe(firm.received);
    const stranger = await h.registerByEmail();
    expectTrpcRefusal(
      await h.trpc("conversion.create", { quote_id: firm.id }, stranger.token),
      "QUOTE_NOT_FOUND",
    );
    const done = dataOf<{ received: string }>(
      await h.trpc("conversion.create", { quote_id: firm.id }, u.token),
    );
    expect(norm(done.received)).toBe(firm.received);
    expect(await balanceOf(h, userId, "ETH")).toEqual({ available: firm.received, held: "0" });
    await policy(h, "funding.convert.spread", "0.002");
    expectTrpcRefusal(
      await h.trpc("conversion.create", { quote_id: "not-a-quote" }, u.token),
      "QUOTE_NOT_FOUND",
    );
  });
});

type Assets = {
  book: string;
  rows: { wallet: string; currency: string; available: string; frozen: string; valueUsdt: string | null }[];
  totals: Record<string, string>;
  totalUsdt: string;
};

describe("asset screens", () => {
  it("values every wallet in USDT: asset.get, web/getAsset2 and web/info agree", async () => {
    const u = await h.registerByEmail();
    const userId = await userIdOf(h, u.token);
    await grant(h, userId, "500");
    await grant(h, userId, "0.01", "BTC");
    expectOk(
      await h.trpc(
        "transfer.create",
        { from: "exchange", to: "contract", currency: "USDT", amount: "100" },
        u.token,
      ),
    );

    const a = dataOf<Assets>(await h.trpc("asset.get", undefined, u.token, "query"));
    expect(a.book).toBe("real");
    expect(a.totals).toEqual({ exchange: "1300.00", contract: "100.00", option: "0.00", futures: "0.00" });
    expect(a.totalUsdt).toBe("1400.00");
    const currencies = (
      await query<{ n: number }>(h, "select count(*)::int as n from currencies where enabled")
    )[0]?.n;
    expect(a.rows).toHaveLength((currencies ?? 0) * 4);
    expect(a.rows.find((r) => r.wallet === "exchange" && r.currency === "BTC")).toMatchObject({
      valueUsdt: "900.00",
    });

    const legacy = await h.call("getAsset2", { token: u.token }, "GET");
    expect(legacy.code, legacy.message).toBe(0);
    const data = legacy.data as {
      book: string;
      total_usdt: string;
      totals: Record<string, string>;
      list: Record<string, unknown>[];
    };
    expect([data.book, data.total_usdt, data.totals]).toEqual(["real", "1400.00", a.totals]);
    expect(data.list).toHaveLength(a.rows.length);
    const btc = data.list.find((r) => r.wallet === "exchange" && r.currency === "BTC");
    expect(btc).toMatchObject({ name: "Bitcoin", decimals: 6, value_usdt: "900.00", frozen: "0" });
    expect(norm(btc?.available as string)).toBe("0.01");
    expectRefusal(await h.call("getAsset2", {}), "LOGIN_REQUIRED", { responseCode: 2000 });

    expect((await h.call("info", { token: u.token })).data).toMatchObject({ usdt: "400" });
    expectOk(
      await h.trpc(
        "transfer.create",
        { from: "exchange", to: "option", currency: "USDT", amount: "0.5" },
        u.token,
      ),
    );
    expect((await h.call("info", { token: u.token })).data).toMatchObject({ usdt: "399.5" });
  });

  it("web/getCurrencyAll lists the currencies with their USDT price, without a session", async () => {
    const res = await h.call("getCurrencyAll", {}, "GET");
    expect(res.code, res.message).toBe(0);
    const list = (
      res.data as { list: { currency: string; name: string; decimals: number; price_usdt: string | null }[] }
    ).list;
    expect(list.find((c) => c.currency === "BTC")).toEqual({
      currency: "BTC",
      name: "Bitcoin",
      decimals: 6,
      price_usdt: "90000",
    });
    expect(list.find((c) => c.currency === "USDT")).toMatchObject({ price_usdt: "1" });
    expect(list.map((c) => c.currency)).toEqual(
      (await query<{ code: string }>(h, "select code from currencies where enabled order by sort")).map(
        (c) => c.code,
      ),
    );
  });
});

type Line = {
  kind: string;
  referenceType: string;
  referenceId: string;
  wallet: string;
  bucket: string;
  currency: string;
  amount: string;
  balanceAfter: string;
  time: number;
};

describe("asset.records", () => {
  it("lists the user's ledger lines, newest first, with kind and reference, filtered and paged", async () => {
    const u = await h.registerByEmail();
    const other = await h.registerByEmail();
    const depositId = await depositAndConfirm(h, u.token, op, "100");
    const transfer = dataOf<{ id: number }>(
      await h.trpc(
        "transfer.create",
        { from: "exchange", to: "contract", currency: "USDT", amount: "30" },
        u.token,
      ),
    );
    const q = await firmQuote(u.token, "USDT", "ETH", "10");
    const convert = dataOf<{ id: number }>(await h.trpc("conversion.create", { quote_id: q.id }, u.token));

    const lines = dataOf<Line[]>(await h.trpc("asset.records", {}, u.token, "query"));
    expect(
      lines.map((l) => [
        l.kind,
        l.referenceType,
        l.referenceId,
        l.wallet,
        l.currency,
        norm(l.amount),
        norm(l.balanceAfter),
      ]),
    ).toEqual([
      ["wallet.convert", "convert", String(convert.id), "exchange", "ETH", "0.00332666", "0.00332666"],
      ["wallet.convert", "convert", String(convert.id), "exchange", "USDT", "-10", "60"],
      ["wallet.transfer", "transfer", String(transfer.id), "contract", "USDT", "30", "30"],
      ["wallet.transfer", "transfer", String(transfer.id), "exchange", "USDT", "-30", "70"],
      ["deposit.confirm", "deposit", String(depositId), "exchange", "USDT", "100", "100"],
    ]);
    expect(lines.every((l) => typeof l.time === "number" && l.bucket === "available")).toBe(true);

    const deposits = dataOf<Line[]>(
      await h.trpc("asset.records", { kind: "deposit.confirm" }, u.token, "query"),
    );
    expect(deposits.map((l) => l.referenceId)).toEqual([String(depositId)]);
    expect(
      dataOf<Line[]>(await h.trpc("asset.records", { wallet: "contract" }, u.token, "query")),
    ).toHaveLength(1);
    expect(dataOf<Line[]>(await h.trpc("asset.records", { currency: "ETH" }, u.token, "query"))).toHaveLength(
      1,
    );
    const page2 = dataOf<Line[]>(await h.trpc("asset.records", { page: 2, page_size: 2 }, u.token, "query"));
    expect(page2.map((l) => l.kind)).toEqual(["wallet.transfer", "wallet.transfer"]);
    expect(dataOf<Line[]>(await h.trpc("asset.records", {}, other.token, "query"))).toEqual([]);
  });
});
