import { translate } from "@northstar/shared/i18n";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorText, expectOk, expectTrpcRefusal, fieldInvalidText, query } from "../test/fixtures.ts";
import { createHarness, type Harness } from "../test/harness.ts";
import { ADDR, balanceOf, dataOf, expectLedgerBalanced, grant, norm, userIdOf } from "../test/money.ts";

/** The withdrawal address book, bank cards, and transfers between a user's own wallets. */
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h?.close();
});

type Address = {
  id: number;
  currency: string;
  chain: string;
  address: string;
  remark: string | null;
  memo: string | null;
};
const addresses = async (token: string) =>
  dataOf<Address[]>(await h.trpc("withdrawalAddress.getMany", undefined, token, "query"));

describe("withdrawal addresses", () => {
  it("accepts valid ERC20, TRC20 and BTC addresses, with remark and memo", async () => {
    const u = await h.registerByEmail();
    const erc = dataOf<Address>(
      await h.trpc(
        "withdrawalAddress.create",
        { currency: "usdt", chain: "erc20", address: ADDR.ERC20, remark: "cold" },
        u.token,
      ),
    );
    expect(erc).toMatchObject({ currency: "USDT", chain: "ERC20", address: ADDR.ERC20, remark: "cold" });
    expectOk(
      await h.trpc(
        "withdrawalAddress.create",
        { currency: "USDT", chain: "TRC20", address: ADDR.TRC20, memo: "42" },
        u.token,
      ),
    );
    expectOk(
      await h.trpc("withdrawalAddress.create", { currency: "BTC", chain: "BTC", address: ADDR.BTC }, u.token),
    );
    expectOk(
      await h.trpc(
        "withdrawalAddress.create",
        { currency: "BTC", chain: "BTC", address: "1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2" },
        u.token,
      ),
    );
    const list = await addresses(u.token);
    expect(list.map((a) => a.chain)).toEqual(["BTC", "BTC", "TRC20", "ERC20"]);
    expect(list[2]).toMatchObject({ address: ADDR.TRC20, memo: "42" });
  });

  it("refuses malformed addresses with ADDRESS_FORMAT naming the chain", async () => {
    const u = await h.registerByEmail();
    const cases: [string, string][] = [
      ["ERC20", "0x1234"],
      ["ERC20", `${ADDR.ERC20}0`],
      ["ERC20", "0xZZ908400098527886E0F7030069857D2E4169EE7"],
      ["ERC20", ADDR.TRC20],
      ["TRC20", ADDR.ERC20],
      ["TRC20", "TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU0"],
      ["BTC", "bc1qshort"],
      ["BTC", "0BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2"],
      ["FOO", ADDR.ERC20],
    ];
    for (const [chain, address] of cases) {
      const res = await h.trpc("withdrawalAddress.create", { currency: "USDT", chain, address }, u.token);
      expectTrpcRefusal(res, "ADDRESS_FORMAT", { params: { chain } });
      expect(res.body.error?.message).toBe(`The address is not a valid ${chain} address`);
    }
    expect(await addresses(u.token)).toEqual([]);
  });

  it("shows each user only their own, and deletes only one's own", async () => {
    const a = await h.registerByEmail();
    const b = await h.registerByEmail();
    const mine = dataOf<Address>(
      await h.trpc(
        "withdrawalAddress.create",
        { currency: "USDT", chain: "ERC20", address: ADDR.ERC20 },
        a.token,
      ),
    );
    expect(await addresses(b.token)).toEqual([]);
    expectTrpcRefusal(await h.trpc("withdrawalAddress.delete", { id: mine.id }, b.token), "NOT_FOUND");
    expect((await addresses(a.token)).map((x) => x.id)).toEqual([mine.id]);
    expectOk(await h.trpc("withdrawalAddress.delete", { id: mine.id }, a.token));
    expect(await addresses(a.token)).toEqual([]);
    expectTrpcRefusal(await h.trpc("withdrawalAddress.delete", { id: mine.id }, a.token), "NOT_FOUND");
  });
});

type Card = Record<string, string | number | null>;
const card = {
  bank_name: "HSBC Hong Kong",
  account: "Chan Tai Man",
  card_id: "004-123-456789-001",
  swift_code: "hsbchkhhhkh",
  routing_number: "026009593",
  bank_address: "1 Queen's Road Central, Hong Kong",
  phone: "+852 2822 1111",
  payee_name: "Chan Tai Man",
  payee_address: "Flat 5, 8 Nathan Road, Kowloon",
};

describe("bank cards", () => {
  it("saves every field of SPEC section 3 and shows the newest card in web/info", async () => {
    const u = await h.registerByEmail();
    expectOk(
      await h.trpc(
        "bankCard.create",
        { ...card, card_id: "1111 2222 3333", swift_code: "", routing_number: "" },
        u.token,
      ),
    );
    const saved = dataOf<Card>(await h.trpc("bankCard.create", card, u.token));
    expect(saved).toMatchObject({
      bankName: card.bank_name,
      account: card.account,
      cardId: card.card_id,
      swiftCode: "HSBCHKHHHKH",
      routingNumber: card.routing_number,
      bankAddress: card.bank_address,
      phone: card.phone,
      payeeName: card.payee_name,
      payeeAddress: card.payee_address,
    });
    const list = dataOf<Card[]>(await h.trpc("bankCard.getMany", undefined, u.token, "query"));
    expect(list).toHaveLength(2);
    expect(list[0]).toEqual(saved);
    expect(list[1]).toMatchObject({ cardId: "1111 2222 3333", swiftCode: null, routingNumber: null });
    expect((await h.call("info", { token: u.token })).data).toMatchObject({
      bank_name: card.bank_name,
      bank_number: card.card_id,
    });
  });

  it("refuses a bad SWIFT code, routing number or card id, and missing names, naming the field", async () => {
    const u = await h.registerByEmail();
    const cases: [Record<string, string>, string][] = [
      [{ swift_code: "HSBC" }, "swiftCode"],
      [{ swift_code: "HSBCHKHHHK" }, "swiftCode"],
      [{ swift_code: "1SBCHKHH" }, "swiftCode"],
      [{ routing_number: "12345678" }, "routingNumber"],
      [{ routing_number: "02600959a" }, "routingNumber"],
      [{ card_id: "12" }, "cardId"],
      [{ card_id: "<script>" }, "cardId"],
    ];
    for (const [patch, field] of cases) {
      const res = await h.trpc("bankCard.create", { ...card, ...patch }, u.token);
      expectTrpcRefusal(res, "FIELD_INVALID", { message: fieldInvalidText(field) });
    }
    expectTrpcRefusal(
      await h.trpc("bankCard.create", { ...card, bank_name: " " }, u.token),
      "FIELD_REQUIRED",
      {
        params: { field: translate("en", "fields.bankName") },
      },
    );
    expectTrpcRefusal(
      await h.trpc("bankCard.create", { ...card, payee_name: "" }, u.token),
      "FIELD_REQUIRED",
      {
        params: { field: translate("en", "fields.payeeName") },
      },
    );
    expect(dataOf<Card[]>(await h.trpc("bankCard.getMany", undefined, u.token, "query"))).toEqual([]);
  });

  it("deletes only one's own card", async () => {
    const a = await h.registerByEmail();
    const b = await h.registerByEmail();
    const saved = dataOf<{ id: number }>(await h.trpc("bankCard.create", card, a.token));
    expect(dataOf<Card[]>(await h.trpc("bankCard.getMany", undefined, b.token, "query"))).toEqual([]);
    expectTrpcRefusal(await h.trpc("bankCard.delete", { id: saved.id }, b.token), "NOT_FOUND");
    expectOk(await h.trpc("bankCard.delete", { id: saved.id }, a.token));
    expect(dataOf<Card[]>(await h.trpc("bankCard.getMany", undefined, a.token, "query"))).toEqual([]);
  });
});

type AssetRow = {
  wallet: string;
  currency: string;
  available: string;
  frozen: string;
  valueUsdt: string | null;
};
const assets = async (token: string) =>
  dataOf<{ rows: AssetRow[]; totals: Record<string, string>; totalUsdt: string }>(
    await h.trpc("asset.get", undefined, token, "query"),
  );

describe("transfers between the exchange, contract, option and futures accounts", () => {
  it("moves funds round all four accounts and the asset rows follow", async () => {
    const u = await h.registerByEmail();
    const userId = await userIdOf(h, u.token);
    await grant(h, userId, "100");
    const move = (from: string, to: string, amount: string) =>
      h.trpc("transfer.create", { from, to, currency: "USDT", amount }, u.token);
    expectOk(await move("exchange", "contract", "40"));
    expectOk(await move("contract", "option", "15.5"));
    expectOk(await move("option", "futures", "5.25"));
    expectOk(await move("futures", "exchange", "1.000001"));
    const usdt = (await assets(u.token)).rows.filter((r) => r.currency === "USDT");
    expect(
      Object.fromEntries(usdt.map((r) => [r.wallet, [norm(r.available), norm(r.frozen), r.valueUsdt]])),
    ).toEqual({
      exchange: ["61.000001", "0", "61.00"],
      contract: ["24.5", "0", "24.50"],
      option: ["10.25", "0", "10.25"],
      // Values are shown rounded down, never overstated.
      futures: ["4.249999", "0", "4.24"],
    });
    const [rows] = await query<{ n: number }>(
      h,
      "select count(*)::int as n from wallet_transfers where user_id = $1 and kind = 'transfer'",
      [userId],
    );
    expect(rows?.n).toBe(4);
  });

  it("refuses the same account, an unknown one, too much, or too many decimals, moving nothing", async () => {
    const u = await h.registerByEmail();
    const userId = await userIdOf(h, u.token);
    await grant(h, userId, "50");
    const move = (from: string, to: string, amount: string, currency = "USDT") =>
      h.trpc("transfer.create", { from, to, currency, amount }, u.token);
    const same = await move("exchange", "exchange", "10");
    expectTrpcRefusal(same, "SAME_WALLET");
    expect(same.body.error?.message).toBe("Choose two different accounts");
    expectTrpcRefusal(await move("exchange", "earn", "10"), "FIELD_INVALID", {
      message: fieldInvalidText("to"),
    });
    const tooMuch = await move("exchange", "contract", "50.000001");
    expectTrpcRefusal(tooMuch, "INSUFFICIENT_BALANCE");
    expect(tooMuch.body.error?.message).toBe(errorText("INSUFFICIENT_BALANCE"));
    expectTrpcRefusal(await move("contract", "exchange", "1"), "INSUFFICIENT_BALANCE");
    expectTrpcRefusal(await move("exchange", "contract", "1.0000001"), "AMOUNT_TOO_PRECISE", {
      params: { field: "Amount", decimals: 6 },
    });
    expectTrpcRefusal(await move("exchange", "contract", "1", "NOPE"), "CURRENCY_UNSUPPORTED");
    expect(await balanceOf(h, userId)).toEqual({ available: "50", held: "0" });
    expect(await balanceOf(h, userId, "USDT", "contract")).toEqual({ available: "0", held: "0" });
    const [rows] = await query<{ n: number }>(
      h,
      "select count(*)::int as n from wallet_transfers where user_id = $1",
      [userId],
    );
    expect(rows?.n).toBe(0);
    await expectLedgerBalanced(h);
  });
});
