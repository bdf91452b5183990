import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runAdminCli } from "../test/cli.ts";
import { query } from "../test/fixtures.ts";
import { createHarness, type Harness } from "../test/harness.ts";
import {
  balanceOf,
  dataOf,
  expectLedgerBalanced,
  operatorToken,
  uploadProof,
  userIdOf,
} from "../test/money.ts";

/**
 * C2C through the API and the operator CLI: the KYC gate, translated refusals naming the field, one
 * order per Idempotency-Key under concurrency, other users' orders unreachable, the proof visible to
 * a finance operator, confirmation by `pnpm admin c2c:confirm` crediting the coins, reconcile exact.
 */
let h: Harness;
let merchantId = 0;
beforeAll(async () => {
  h = await createHarness();
  const created = await runAdminCli(
    h,
    "c2c:merchant:create",
    JSON.stringify({
      name: "API desk",
      coin: "USDT",
      fiat: "CNY",
      price: "7.25",
      min_fiat: "100",
      max_fiat: "100000",
      payee_name: "Wang Fang",
      bank_name: "Test Bank",
      bank_account: "6217 0000 9999",
    }),
  );
  expect(created.code).toBe(0);
  merchantId = (JSON.parse(created.stdout) as { id: number }).id;
  const funded = await operatorCall(
    "c2cAdmin.fundStock",
    { merchant_id: merchantId, amount: "1000" },
    "finance",
  );
  expect(funded.statusCode).toBe(200);
});
afterAll(async () => {
  await h?.close();
});

/** An operator call of the back office, with a fresh operator of the role. */
async function operatorCall(path: string, input: unknown, role: "finance" | "content" | "admin") {
  return h.app.inject({
    method: "POST",
    url: `/trpc/${path}`,
    payload: JSON.stringify(input),
    headers: { "content-type": "application/json", "x-operator-token": await operatorToken(h, role) },
  });
}

async function verifiedUser() {
  const u = await h.registerByEmail();
  const userId = await userIdOf(h, u.token);
  await query(
    h,
    "insert into kyc_applications (user_id, level, status, details, photos) values ($1, 'primary', 'approved', '{}', '[]')",
    [userId],
  );
  return { ...u, userId };
}

async function keyed(path: string, input: unknown, token: string, key: string) {
  const response = await h.app.inject({
    method: "POST",
    url: `/trpc/${path}`,
    payload: JSON.stringify(input),
    headers: { "content-type": "application/json", authorization: `Bearer ${token}`, "idempotency-key": key },
  });
  return {
    status: response.statusCode,
    body: response.json() as { error?: { data: { errorCode: string } } },
  };
}

describe("c2c through tRPC and the CLI", () => {
  it("asks for primary KYC first, and names the field of a bad amount in the caller's language", async () => {
    const u = await h.registerByEmail();
    const input = { merchant_id: merchantId, coin: "USDT", mode: "fiat", amount: "725" };
    const gated = await h.trpc("c2c.create", input, u.token);
    expect(gated.body.error?.data.errorCode).toBe("KYC_REQUIRED");
    const v = await verifiedUser();
    const bad = await h.app.inject({
      method: "POST",
      url: "/trpc/c2c.create",
      payload: JSON.stringify({ ...input, amount: "-5" }),
      headers: {
        "content-type": "application/json",
        authorization: `Bearer ${v.token}`,
        lang: "zh",
        "idempotency-key": "c2c-bad-amount-1",
      },
    });
    const body = bad.json() as { error: { message: string; data: { errorCode: string; field: string } } };
    expect(body.error.data).toMatchObject({ errorCode: "AMOUNT_INVALID", field: "amount" });
    expect(body.error.message).toMatch(/[\u4e00-\u9fff]/);
    const range = await h.trpc("c2c.create", { ...input, amount: "50" }, v.token);
    expect(range.body.error?.data).toMatchObject({ errorCode: "C2C_AMOUNT_RANGE", field: "amount" });
    expect(await query(h, "select id from c2c_orders where user_id = $1", [v.userId])).toHaveLength(0);
  });

  it("creates one order for 20 concurrent sends with one key; completes by proof and c2c:confirm", async () => {
    const v = await verifiedUser();
    const input = { merchant_id: merchantId, coin: "USDT", mode: "fiat", amount: "725" };
    const results = await Promise.all(
      Array.from({ length: 20 }, () => keyed("c2c.create", input, v.token, "c2c-create-concurrent-1")),
    );
    for (const r of results.filter((x) => x.status !== 200)) {
      expect(r.body.error?.data.errorCode).toBe("REQUEST_IN_PROGRESS");
    }
    const orders = await query<{ id: number; status: string }>(
      h,
      "select id, status from c2c_orders where user_id = $1",
      [v.userId],
    );
    expect(orders).toHaveLength(1);
    const orderId = Number(orders[0]?.id);
    const order = dataOf<{ status: string; coinAmount: string; payee: { bankAccount: string } }>(
      await h.trpc("c2c.order", { order_id: orderId }, v.token, "query"),
    );
    expect(order).toMatchObject({
      status: "matched",
      coinAmount: "100",
      payee: { bankAccount: "6217 0000 9999" },
    });

    // Another user reaches nothing of it.
    const other = await verifiedUser();
    const foreign = await h.trpc("c2c.order", { order_id: orderId }, other.token, "query");
    expect(foreign.body.error?.data.errorCode).toBe("C2C_ORDER_NOT_FOUND");

    const proof = await uploadProof(h, v.token);
    const paid = dataOf<{ status: string }>(
      await h.trpc("c2c.submitProof", { order_id: orderId, proof_upload_id: proof, note: "wire 1" }, v.token),
    );
    expect(paid.status).toBe("paid");
    // A finance operator sees the proof image in the back office.
    const finance = await operatorToken(h, "finance");
    const image = await h.app.inject({
      method: "GET",
      url: `/uploads/${proof}`,
      headers: { "x-operator-token": finance },
    });
    expect(image.statusCode).toBe(200);
    const listed = await h.trpc("c2cAdmin.orders", { status: "paid" }, undefined, "query");
    expect(listed.body.error?.data.errorCode).toBe("LOGIN_REQUIRED");

    const confirmed = await runAdminCli(h, "c2c:confirm", String(orderId));
    expect(confirmed.code).toBe(0);
    expect(JSON.parse(confirmed.stdout)).toMatchObject({ status: "completed", proofUploadId: proof });
    expect(await balanceOf(h, v.userId, "USDT")).toEqual({ available: "100", held: "0" });
    const again = await operatorCall("c2cAdmin.confirm", { order_id: orderId }, "finance");
    expect(again.json()).toMatchObject({ error: { data: { errorCode: "C2C_ORDER_STATE" } } });
    expect(await balanceOf(h, v.userId, "USDT")).toEqual({ available: "100", held: "0" });
    await expectLedgerBalanced(h);
  });

  it("saves payment settings for the session's user only and serves the rules page a content operator wrote (sanitised; finance is refused)", async () => {
    const v = await verifiedUser();
    const missing = await h.trpc(
      "c2c.savePaymentSettings",
      { name: "Wang", bank_name: "Test Bank", bank_number: "" },
      v.token,
    );
    expect(missing.body.error?.data).toMatchObject({ errorCode: "FIELD_REQUIRED", field: "bank_number" });
    const saved = dataOf(
      await h.trpc(
        "c2c.savePaymentSettings",
        { name: "Wang", alipay_account: "wang@example.com", weixin_nickname: "W", weixin_account: "wx123" },
        v.token,
      ),
    );
    expect(saved).toMatchObject({
      name: "Wang",
      alipay_account: "wang@example.com",
      weixin_account: "wx123",
    });
    const other = await verifiedUser();
    expect(dataOf(await h.trpc("c2c.paymentSettings", undefined, other.token, "query"))).toBeNull();

    const rules = await runAdminCli(
      h,
      "c2c:rules",
      JSON.stringify({
        en: { body: "<p>Pay within 3 hours</p><script>x()</script>" },
        zh: { body: "<p>3小时内付款</p>" },
      }),
    );
    expect(rules.code).toBe(0);
    expect(dataOf(await h.trpc("c2c.rules", undefined, undefined, "query"))).toMatchObject({
      body: "<p>Pay within 3 hours</p>",
    });
  });
});
