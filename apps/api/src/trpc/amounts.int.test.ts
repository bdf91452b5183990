import { translate } from "@northstar/shared/i18n";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fieldKey } from "../http/errors.ts";
import { expectOk, expectTrpcRefusal, query } from "../test/fixtures.ts";
import { createHarness, type Harness } from "../test/harness.ts";
import {
  ADDR,
  addAddress,
  balanceOf,
  dataOf,
  grant,
  operatorToken,
  policy,
  setDepositAddress,
  setTradePassword,
  submitDeposit,
  userIdOf,
} from "../test/money.ts";

/**
 * Amounts on every money path: finer than the currency is held to, or beyond what NUMERIC(38,18)
 * stores (directly or once multiplied by a price), each is a translated refusal naming its field,
 * never a server fault, and nothing moves.
 */
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
  const op = await operatorToken(h, "finance");
  await setDepositAddress(h, op, "USDT", "ERC20", ADDR.ERC20);
  await policy(h, "funding.withdraw.window", { start: 0, end: 24, timeZone: "Asia/Hong_Kong" });
});
afterAll(async () => {
  await h?.close();
});

type Res = Awaited<ReturnType<Harness["trpc"]>>;
/** A code-1 refusal with `code`, naming `field`. */
function refused(
  res: Res,
  code: "AMOUNT_INVALID" | "AMOUNT_TOO_LARGE" | "AMOUNT_TOO_PRECISE",
  field: string,
) {
  // Finer than USDT's 6 decimals: the text names the field and the decimals allowed.
  const params: Record<string, string | number> =
    code === "AMOUNT_TOO_PRECISE" ? { field: translate("en", fieldKey(field)), decimals: 6 } : {};
  expectTrpcRefusal(res, code, { params });
  expect(res.body.error?.data.field).toBe(field);
}

const HUGE = "99999999999999999999999";

async function funded() {
  const u = await h.registerByEmail();
  const userId = await userIdOf(h, u.token);
  await grant(h, userId, "1000");
  return { ...u, userId };
}

describe("amounts beyond NUMERIC(38,18) and finer than the currency", () => {
  it("deposit: a huge or exponent amount is refused, not a server fault", async () => {
    const u = await funded();
    refused(await submitDeposit(h, u.token, { amount: HUGE }), "AMOUNT_TOO_LARGE", "amount");
    refused(await submitDeposit(h, u.token, { amount: "1e30" }), "AMOUNT_INVALID", "amount");
    refused(await submitDeposit(h, u.token, { amount: "1.0000001" }), "AMOUNT_TOO_PRECISE", "amount");
    expect(dataOf<unknown[]>(await h.trpc("deposit.getMany", {}, u.token, "query"))).toEqual([]);
  });

  it("withdrawal and its fee preview", async () => {
    const u = await funded();
    await setTradePassword(h, u);
    const addressId = await addAddress(h, u.token);
    const withdraw = (amount: string) =>
      h.trpc(
        "withdrawal.create",
        { currency: "USDT", address_id: addressId, amount, trade_password: "123456" },
        u.token,
      );
    refused(await withdraw(HUGE), "AMOUNT_TOO_LARGE", "amount");
    refused(await withdraw("100.0000001"), "AMOUNT_TOO_PRECISE", "amount");
    refused(await h.trpc("withdrawal.fee", { amount: HUGE }, u.token, "query"), "AMOUNT_TOO_LARGE", "amount");
    refused(
      await h.trpc("withdrawal.fee", { amount: "1.0000001" }, u.token, "query"),
      "AMOUNT_TOO_PRECISE",
      "amount",
    );
    expect(await balanceOf(h, u.userId)).toEqual({ available: "1000", held: "0" });
  });

  it("transfer between wallets", async () => {
    const u = await funded();
    const transfer = (amount: string) =>
      h.trpc("transfer.create", { from: "exchange", to: "contract", currency: "USDT", amount }, u.token);
    refused(await transfer(HUGE), "AMOUNT_TOO_LARGE", "amount");
    refused(await transfer("1.0000001"), "AMOUNT_TOO_PRECISE", "amount");
    expect(await balanceOf(h, u.userId)).toEqual({ available: "1000", held: "0" });
  });

  it("conversion: an amount whose value in the other currency would not fit is refused too", async () => {
    const u = await funded();
    await grant(h, u.userId, "1", "BTC");
    const input = { from: "BTC", to: "DOGE", amount: "99999999999999999999" };
    refused(await h.trpc("conversion.quote", input, u.token, "query"), "AMOUNT_TOO_LARGE", "amount");
    refused(await h.trpc("conversion.createQuote", input, u.token), "AMOUNT_TOO_LARGE", "amount");
    refused(
      await h.trpc("conversion.createQuote", { ...input, amount: HUGE }, u.token),
      "AMOUNT_TOO_LARGE",
      "amount",
    );
    refused(
      await h.trpc("conversion.quote", { from: "USDT", to: "BTC", amount: "1.0000001" }, u.token, "query"),
      "AMOUNT_TOO_PRECISE",
      "amount",
    );
    expect(await balanceOf(h, u.userId, "BTC")).toEqual({ available: "1", held: "0" });
  });

  it("spot orders: limit, market by quantity and market buy by amount", async () => {
    const u = await funded();
    const place = (order: Record<string, string>) =>
      h.trpc("spot.place", { symbol: "BTCUSDT", ...order }, u.token);
    // 90,000,000,000,000 × 90,000,000,000 is on the grid, but its hold is far beyond NUMERIC(38,18).
    refused(
      await place({ side: "buy", type: "limit", price: "90000000000000", quantity: "90000000000" }),
      "AMOUNT_TOO_LARGE",
      "quantity",
    );
    refused(
      await place({ side: "buy", type: "limit", price: HUGE, quantity: "1" }),
      "AMOUNT_TOO_LARGE",
      "price",
    );
    refused(await place({ side: "sell", type: "market", quantity: HUGE }), "AMOUNT_TOO_LARGE", "quantity");
    refused(
      await place({ side: "buy", type: "market", quote_amount: HUGE }),
      "AMOUNT_TOO_LARGE",
      "quote_amount",
    );
    // USDT is held to 6 decimals: a budget finer than that cannot be spent as given.
    refused(
      await place({ side: "buy", type: "market", quote_amount: "10.1234567" }),
      "AMOUNT_TOO_PRECISE",
      "quote_amount",
    );
    expect(await balanceOf(h, u.userId)).toEqual({ available: "1000", held: "0" });
  });

  it("a limit buy holds price × quantity rounded up to the quote currency's decimals", async () => {
    const u = await funded();
    // 91,250.01 × 0.00001 = 0.9125001 USDT; USDT is held to 6 decimals, so 0.912501 is held.
    expectOk(
      await h.trpc(
        "spot.place",
        { symbol: "BTCUSDT", side: "buy", type: "limit", price: "91250.01", quantity: "0.00001" },
        u.token,
      ),
    );
    const [row] = await query<{ held: string }>(h, "select held::text from spot_orders where user_id = $1", [
      u.userId,
    ]);
    expect(row?.held).toBe("0.912501000000000000");
    expect(await balanceOf(h, u.userId)).toEqual({ available: "999.087499", held: "0.912501" });
  });
});
