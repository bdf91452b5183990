import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectOk, expectTrpcRefusal, query } from "../test/fixtures.ts";
import { createHarness, type Harness } from "../test/harness.ts";
import {
  addAddress,
  balanceOf,
  dataOf,
  expectLedgerBalanced,
  grant,
  policy,
  setTradePassword,
  type TrpcResult,
  userIdOf,
} from "../test/money.ts";

/**
 * Money actions sent twice with one Idempotency-Key apply once and answer the first result again:
 * a double-clicked or retried withdrawal, transfer, conversion or spot order (issue 9).
 */
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
  await policy(h, "funding.withdraw.window", { start: 0, end: 24, timeZone: "Asia/Hong_Kong" });
});
afterAll(async () => {
  await h?.close();
});

const newKey = () => randomBytes(12).toString("base64url");

/** A tRPC mutation as the web client sends a money action: with its Idempotency-Key header. */
async function keyed(path: string, input: unknown, token: string, key: string): Promise<TrpcResult> {
  const response = await h.app.inject({
    method: "POST",
    url: `/trpc/${path}`,
    payload: JSON.stringify(input),
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json", "idempotency-key": key },
  });
  return { status: response.statusCode, body: response.json() };
}

type User = { token: string; password: string; userId: number };
async function fundedUser(funds: string, currency = "USDT"): Promise<User> {
  const u = await h.registerByEmail();
  const userId = await userIdOf(h, u.token);
  await grant(h, userId, funds, currency);
  return { ...u, userId };
}

const count = async (table: string, userId: number) =>
  (await query<{ n: number }>(h, `select count(*)::int as n from ${table} where user_id = $1`, [userId]))[0]
    ?.n;

/**
 * Sends `n` identical requests at once. Each answer is the first result, or REQUEST_IN_PROGRESS while
 * the first is still running; those are retried with the same key until they get the first result.
 */
async function burst(n: number, send: () => Promise<TrpcResult>): Promise<TrpcResult[]> {
  const answers = await Promise.all(Array.from({ length: n }, send));
  const settled: TrpcResult[] = [];
  for (let answer of answers) {
    while (answer.body.error?.data.errorCode === "REQUEST_IN_PROGRESS") {
      expectTrpcRefusal(answer, "REQUEST_IN_PROGRESS");
      answer = await send();
    }
    settled.push(answer);
  }
  return settled;
}

describe("withdrawal.create with an Idempotency-Key", () => {
  async function readyUser(funds: string) {
    const u = await fundedUser(funds);
    await setTradePassword(h, u);
    return { ...u, addressId: await addAddress(h, u.token, "ERC20") };
  }
  const input = (u: { addressId: number }, amount = "100") => ({
    currency: "USDT",
    address_id: u.addressId,
    amount,
    trade_password: "123456",
  });

  it("applies a double submit once: one hold, and the second answer is the first (same id)", async () => {
    const u = await readyUser("1000");
    const key = newKey();
    const first = dataOf<{ id: number; amount: string }>(
      await keyed("withdrawal.create", input(u), u.token, key),
    );
    const second = dataOf<{ id: number }>(await keyed("withdrawal.create", input(u), u.token, key));
    expect(second).toEqual(first);
    expect(await count("withdrawals", u.userId)).toBe(1);
    expect(await balanceOf(h, u.userId)).toEqual({ available: "900", held: "100" });
  });

  it("applies 50 identical submits sent at once exactly once; every sender gets the same withdrawal", async () => {
    const u = await readyUser("1000");
    const key = newKey();
    const answers = await burst(50, () => keyed("withdrawal.create", input(u), u.token, key));
    const ids = new Set(answers.map((a) => dataOf<{ id: number }>(a).id));
    expect(ids.size).toBe(1);
    expect(await count("withdrawals", u.userId)).toBe(1);
    expect(await balanceOf(h, u.userId)).toEqual({ available: "900", held: "100" });
    await expectLedgerBalanced(h);
  });

  it("keeps different keys independent, and another user's identical key does not collide", async () => {
    const u = await readyUser("1000");
    const other = await readyUser("1000");
    const key = newKey();
    const a = dataOf<{ id: number }>(await keyed("withdrawal.create", input(u), u.token, key));
    const b = dataOf<{ id: number }>(await keyed("withdrawal.create", input(u), u.token, newKey()));
    const c = dataOf<{ id: number }>(await keyed("withdrawal.create", input(other), other.token, key));
    expect(new Set([a.id, b.id, c.id]).size).toBe(3);
    expect(await balanceOf(h, u.userId)).toEqual({ available: "800", held: "200" });
    expect(await balanceOf(h, other.userId)).toEqual({ available: "900", held: "100" });
  });

  it("refuses the same key with another input, in the caller's language, and changes nothing", async () => {
    const u = await readyUser("1000");
    const key = newKey();
    expectOk(await keyed("withdrawal.create", input(u), u.token, key));
    const changed = await keyed("withdrawal.create", input(u, "200"), u.token, key);
    expectTrpcRefusal(changed, "IDEMPOTENCY_KEY_REUSED");
    expect(changed.body.error?.data.field).toBe("idempotency_key");
    expect(await count("withdrawals", u.userId)).toBe(1);
    expect(await balanceOf(h, u.userId)).toEqual({ available: "900", held: "100" });
  });

  it("does not keep a refusal: the same request may run again once the user can do it", async () => {
    const u = await readyUser("50");
    const key = newKey();
    expectTrpcRefusal(await keyed("withdrawal.create", input(u), u.token, key), "INSUFFICIENT_BALANCE");
    await grant(h, u.userId, "50");
    const ok = dataOf<{ id: number }>(await keyed("withdrawal.create", input(u), u.token, key));
    expect(ok.id).toBeGreaterThan(0);
    expect(await balanceOf(h, u.userId)).toEqual({ available: "0", held: "100" });
  });

  it("refuses a malformed key naming the field", async () => {
    const u = await readyUser("1000");
    const res = await keyed("withdrawal.create", input(u), u.token, "bad key!");
    expectTrpcRefusal(res, "FIELD_INVALID", { params: { field: "Idempotency key" } });
    expect(await count("withdrawals", u.userId)).toBe(0);
  });
});

describe("transfer.create and conversion.create with an Idempotency-Key", () => {
  const transfer = { from: "exchange", to: "contract", currency: "USDT", amount: "100" };

  it("moves a double-submitted transfer once and answers the same transfer", async () => {
    const u = await fundedUser("1000");
    const key = newKey();
    const answers = await burst(20, () => keyed("transfer.create", transfer, u.token, key));
    expect(new Set(answers.map((a) => dataOf<{ id: number }>(a).id)).size).toBe(1);
    expect(await count("wallet_transfers", u.userId)).toBe(1);
    expect(await balanceOf(h, u.userId, "USDT", "exchange")).toEqual({ available: "900", held: "0" });
    expect(await balanceOf(h, u.userId, "USDT", "contract")).toEqual({ available: "100", held: "0" });

    expectTrpcRefusal(
      await keyed("transfer.create", { ...transfer, amount: "1" }, u.token, key),
      "IDEMPOTENCY_KEY_REUSED",
    );
    const other = await fundedUser("1000");
    expectOk(await keyed("transfer.create", transfer, other.token, key));
    expectOk(await keyed("transfer.create", transfer, u.token, newKey()));
    expect(await count("wallet_transfers", u.userId)).toBe(2);
  });

  it("converts a double-submitted conversion once and answers the same conversion", async () => {
    const u = await fundedUser("1000");
    const firm = async () =>
      dataOf<{ id: string }>(
        await h.trpc("conversion.createQuote", { from: "USDT", to: "BTC", amount: "100" }, u.token),
      );
    const convert = { quote_id: (await firm()).id };
    const key = newKey();
    const first = dataOf<{ id: number; received: string }>(
      await keyed("conversion.create", convert, u.token, key),
    );
    const second = dataOf<{ id: number; received: string }>(
      await keyed("conversion.create", convert, u.token, key),
    );
    expect(second).toEqual(first);
    expect(await count("wallet_transfers", u.userId)).toBe(1);
    expect(await balanceOf(h, u.userId, "USDT")).toEqual({ available: "900", held: "0" });
    expectTrpcRefusal(
      await keyed("conversion.create", { quote_id: (await firm()).id }, u.token, key),
      "IDEMPOTENCY_KEY_REUSED",
    );
    // The same quote under a new key: a second confirmation of one quote converts nothing.
    expectTrpcRefusal(await keyed("conversion.create", convert, u.token, newKey()), "QUOTE_USED");
    expectOk(await keyed("conversion.create", { quote_id: (await firm()).id }, u.token, newKey()));
    expect(await balanceOf(h, u.userId, "USDT")).toEqual({ available: "800", held: "0" });
    await expectLedgerBalanced(h);
  });
});

describe("spot.place with an Idempotency-Key", () => {
  const order = { symbol: "BTCUSDT", side: "buy", type: "limit", price: "1000", quantity: "0.01" };
  type Placed = { order: { id: number; status: string } };

  it("records a double-submitted order once, holding once, and answers the same order", async () => {
    const u = await fundedUser("100");
    const key = newKey();
    const first = dataOf<Placed>(await keyed("spot.place", order, u.token, key));
    const second = dataOf<Placed>(await keyed("spot.place", order, u.token, key));
    expect(second.order.id).toBe(first.order.id);
    expect(await count("spot_orders", u.userId)).toBe(1);
    expect(await balanceOf(h, u.userId)).toEqual({ available: "90", held: "10" });
  });

  it("records 50 identical orders sent at once exactly once; every sender gets that order", async () => {
    const u = await fundedUser("100");
    const key = newKey();
    const answers = await burst(50, () => keyed("spot.place", order, u.token, key));
    expect(new Set(answers.map((a) => dataOf<Placed>(a).order.id)).size).toBe(1);
    expect(await count("spot_orders", u.userId)).toBe(1);
    expect(await balanceOf(h, u.userId)).toEqual({ available: "90", held: "10" });
    await expectLedgerBalanced(h);
  });

  it("refuses the key with another order, keeps other keys and other users independent", async () => {
    const u = await fundedUser("100");
    const other = await fundedUser("100");
    const key = newKey();
    expectOk(await keyed("spot.place", order, u.token, key));
    const changed = await keyed("spot.place", { ...order, price: "1001" }, u.token, key);
    expectTrpcRefusal(changed, "IDEMPOTENCY_KEY_REUSED");
    expect(changed.body.error?.data.field).toBe("idempotency_key");
    expectOk(await keyed("spot.place", order, other.token, key));
    expectOk(await keyed("spot.place", order, u.token, newKey()));
    expect(await count("spot_orders", u.userId)).toBe(2);
    expect(await count("spot_orders", other.userId)).toBe(1);
    expect(await balanceOf(h, u.userId)).toEqual({ available: "80", held: "20" });
  });

  it("does not keep a refused order: the same key may place it once the funds are there", async () => {
    const u = await fundedUser("5");
    const key = newKey();
    expectTrpcRefusal(await keyed("spot.place", order, u.token, key), "INSUFFICIENT_BALANCE");
    await grant(h, u.userId, "5");
    expectOk(await keyed("spot.place", order, u.token, key));
    expect(await balanceOf(h, u.userId)).toEqual({ available: "0", held: "10" });
  });
});
