import { randomBytes } from "node:crypto";
import { recordContractTicks } from "@northstar/domain/contracts";
import { postEntry } from "@northstar/domain/ledger";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectTrpcRefusal, query } from "../test/fixtures.ts";
import { createHarness, type Harness } from "../test/harness.ts";
import { dataOf, type TrpcResult, userIdOf } from "../test/money.ts";

/**
 * Contracts through the API as the web sends them: an opening sent 20 times at once with one
 * Idempotency-Key opens once; refusals are translated and name their field; another user's position
 * is not found.
 */
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h?.close();
});

async function keyed(path: string, input: unknown, token: string, key: string): Promise<TrpcResult> {
  const response = await h.app.inject({
    method: "POST",
    url: `/trpc/${path}`,
    payload: JSON.stringify(input),
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json", "idempotency-key": key },
  });
  return { status: response.statusCode, body: response.json() };
}

async function fundedUser(funds: string) {
  const u = await h.registerByEmail();
  const userId = await userIdOf(h, u.token);
  await postEntry(h.db, {
    idempotencyKey: `grant:${userId}`,
    kind: "test.grant",
    reference: { type: "test", id: userId },
    postings: [
      { account: { system: "deposit_clearing:test", book: "real", currency: "USDT" }, amount: `-${funds}` },
      { account: { userId, book: "real", wallet: "contract", currency: "USDT" }, amount: funds },
    ],
  });
  return { ...u, userId };
}

describe("contracts through the API", { timeout: 60_000 }, () => {
  it("opens once when one opening is sent 20 times at once with one Idempotency-Key", async () => {
    const u = await fundedUser("1000");
    await recordContractTicks(h.db, [{ symbol: "ETHUSDT", price: "3000", time: Date.now() }]);
    const key = randomBytes(12).toString("base64url");
    const input = { symbol: "ETHUSDT", side: "long", order_type: "market", lots: "0.5", leverage: 10 };
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => keyed("contracts.open", input, u.token, key)),
    );
    const ids = new Set<number>();
    for (let answer of answers) {
      while (answer.body.error?.data.errorCode === "REQUEST_IN_PROGRESS") {
        answer = await keyed("contracts.open", input, u.token, key);
      }
      ids.add(dataOf<{ id: number }>(answer).id);
    }
    expect(ids.size).toBe(1);
    expect(
      await query(h, "select count(*)::int as n from contract_positions where user_id = $1", [u.userId]),
    ).toEqual([{ n: 1 }]);
  });

  it("refuses bad input with a translated text naming the field, and hides another user's position", async () => {
    const u = await fundedUser("1000");
    const other = await fundedUser("1000");
    await recordContractTicks(h.db, [{ symbol: "BTCUSDT", price: "90000", time: Date.now() }]);
    const bad = await h.trpc(
      "contracts.open",
      { symbol: "BTCUSDT", side: "long", order_type: "market", lots: "0.001", leverage: 10 },
      u.token,
    );
    expectTrpcRefusal(bad, "CONTRACT_LOTS_INVALID", { params: { step: "0.01", min: "0.01", max: "100" } });
    const opened = await h.trpc(
      "contracts.open",
      { symbol: "BTCUSDT", side: "short", order_type: "market", lots: "0.01", leverage: 20 },
      u.token,
    );
    const { id } = dataOf<{ id: number }>(opened);
    expectTrpcRefusal(await h.trpc("contracts.position", { id }, other.token, "query"), "CONTRACT_NOT_FOUND");
    expectTrpcRefusal(await h.trpc("contracts.close", { id }, other.token), "CONTRACT_NOT_FOUND");
    const mine = await h.trpc("contracts.position", { id }, u.token, "query");
    expect(dataOf<{ position: unknown }>(mine).position).toMatchObject({
      id,
      status: "holding",
      margin: "45",
    });
  });
});
