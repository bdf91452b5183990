import { SpotMatcher } from "@northstar/domain/spot";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testRedisUrl } from "../../../../packages/domain/src/test-support/index.ts";
import { expectOk, expectTrpcRefusal } from "../test/fixtures.ts";
import { createHarness, type Harness } from "../test/harness.ts";
import {
  ADDR,
  addAddress,
  balanceOf,
  dataOf,
  depositAndConfirm,
  grant,
  operatorToken,
  policy,
  setDepositAddress,
  setTradePassword,
  userIdOf,
} from "../test/money.ts";

/**
 * The withdrawal turnover requirement ("traded or converted", docs/decisions.md) counts spot
 * trading: the USDT value of the user's own fills, recorded when the matcher settles them.
 */
let h: Harness;
let op: string;
let matcher: SpotMatcher;
beforeAll(async () => {
  h = await createHarness();
  op = await operatorToken(h, "finance");
  await setDepositAddress(h, op, "USDT", "ERC20", ADDR.ERC20);
  await policy(h, "funding.withdraw.window", { start: 0, end: 24, timeZone: "Asia/Hong_Kong" });
  matcher = new SpotMatcher({
    db: h.db,
    redis: new Redis(testRedisUrl()),
    prefix: h.redisPrefix,
    blockMs: 10,
  });
  await matcher.start();
});
afterAll(async () => {
  await matcher?.stop();
  await h?.close();
});

type Turnover = { ratio: string; required: string; done: string; met: boolean };
const turnoverOf = async (token: string) =>
  dataOf<{ turnover: Turnover }>(await h.trpc("withdrawal.terms", undefined, token, "query")).turnover;

/** Polls until `done` holds: the matcher settles fills asynchronously, after the order is accepted. */
async function until<T>(probe: () => Promise<T>, done: (v: T) => boolean): Promise<T> {
  for (let i = 0; i < 500; i++) {
    const value = await probe();
    if (done(value)) {
      return value;
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error("timed out");
}

/** A user who deposited 2,000 USDT (so 1,800 must be turned over), with a trade password and address. */
async function depositor() {
  const u = await h.registerByEmail();
  await setTradePassword(h, u);
  await depositAndConfirm(h, u.token, op, "2000");
  const addressId = await addAddress(h, u.token);
  const withdraw = () =>
    h.trpc(
      "withdrawal.create",
      { currency: "USDT", address_id: addressId, amount: "100", trade_password: "123456" },
      u.token,
    );
  return { ...u, userId: await userIdOf(h, u.token), withdraw };
}

describe("turnover counts spot trading", () => {
  it("a user who deposited and traded enough on spot, without converting, can withdraw", async () => {
    const seller = await h.registerByEmail();
    await grant(h, await userIdOf(h, seller.token), "1", "BTC");
    const buyer = await depositor();
    expect(await turnoverOf(buyer.token)).toEqual({
      ratio: "0.9",
      required: "1800.00",
      done: "0.00",
      met: false,
    });
    expectTrpcRefusal(await buyer.withdraw(), "WITHDRAW_TURNOVER_REQUIRED", {
      params: { required: "1800.00", done: "0.00", ratio: "90" },
    });

    const order = { symbol: "BTCUSDT", type: "limit", price: "91250", quantity: "0.02" };
    expectOk(await h.trpc("spot.place", { ...order, side: "sell" }, seller.token));
    expectOk(await h.trpc("spot.place", { ...order, side: "buy" }, buyer.token));
    // 0.02 × 91,250 = 1,825 USDT traded: more than the 1,800 required.
    const done = await until(
      () => turnoverOf(buyer.token),
      (t) => t.done !== "0.00",
    );
    expect(done).toEqual({ ratio: "0.9", required: "1800.00", done: "1825.00", met: true });
    expect(await balanceOf(h, buyer.userId)).toEqual({ available: "175", held: "0" });
    expectOk(await buyer.withdraw());
    // The seller's side of the fill counts for the seller as well.
    expect((await turnoverOf(seller.token)).done).toBe("1825.00");
  });

  it("a user who deposited and did not trade cannot", async () => {
    const idle = await depositor();
    expectTrpcRefusal(await idle.withdraw(), "WITHDRAW_TURNOVER_REQUIRED", {
      params: { required: "1800.00", done: "0.00", ratio: "90" },
    });
    expect(await balanceOf(h, idle.userId)).toEqual({ available: "2000", held: "0" });
  });
});
