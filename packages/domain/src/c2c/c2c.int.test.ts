import { MoneyDecimal } from "@northstar/shared/money";
import { sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createDb, type Db } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { findDustBalances, getUserBalances, reconcileLedger } from "../ledger/index.ts";
import { seedDatabase } from "../setup/index.ts";
import { createTestDatabase } from "../test-support/index.ts";
import {
  type C2cDeps,
  cancelC2cOrder,
  confirmC2cOrder,
  createC2cOrder,
  createMerchant,
  expireC2cOrder,
  expireDueC2cOrders,
  fundMerchant,
  getC2cOrder,
  getPaymentSettings,
  listC2cOrders,
  matchC2cOrder,
  moveMerchantStock,
  quoteC2cOrder,
  rejectC2cOrder,
  savePaymentSettings,
  setMerchantStatus,
  submitC2cProof,
  updateMerchant,
} from "./index.ts";
import { createC2cUser, createProofUpload, ledgerStock } from "./testing.ts";

/**
 * C2C purchase by wire against a real database: every transition of the order machine, the stock
 * held in escrow through the ledger (the merchant row's mirror equals the ledger after each
 * scenario, and reconciliation is exact), races for the last stock and 50 concurrent proofs.
 * Instants come from a test clock.
 */
let db: Db;
let teardown: () => Promise<void>;
const clock = { now: new Date(Date.UTC(2026, 5, 1, 8, 0, 0)) };
const deps = (): C2cDeps => ({ db, now: () => clock.now });
const THREE_HOURS = 3 * 3_600_000;
const scheduled: { orderId: number; at: Date }[] = [];
const withScheduler = (): C2cDeps => ({
  ...deps(),
  scheduler: {
    schedule: async (orderId, at) => {
      scheduled.push({ orderId, at });
    },
    close: async () => {},
  },
});

beforeAll(async () => {
  const database = await createTestDatabase();
  const conn = createDb(database.url, { max: 20 });
  conn.pool.on("error", () => {});
  db = conn.db;
  await seedDatabase(db);
  teardown = async () => {
    await conn.close();
    await database.drop();
  };
});
afterAll(async () => {
  await teardown?.();
});
afterEach(async () => {
  // Reconciliation is exact, and every merchant's mirror equals its ledger accounts.
  const report = await reconcileLedger(db);
  expect(report.ok).toBe(true);
  const merchants = await db.execute<{ id: number; stock_available: string; stock_reserved: string }>(
    sql`select id, stock_available::text, stock_reserved::text from c2c_merchants order by id`,
  );
  for (const m of merchants.rows) {
    const ledger = await ledgerStock(db, Number(m.id));
    expect(new MoneyDecimal(ledger.escrow).equals(m.stock_available)).toBe(true);
    expect(new MoneyDecimal(ledger.reserved).equals(m.stock_reserved)).toBe(true);
  }
});

let merchantSeq = 0;
async function merchant(
  stock: string,
  over: Partial<{ price: string; coin: string; min: string; max: string }> = {},
) {
  merchantSeq += 1;
  const m = await createMerchant(
    db,
    {
      name: `Merchant ${merchantSeq}`,
      coin: over.coin ?? "USDT",
      fiat: "CNY",
      price: over.price ?? "7.2",
      min_fiat: over.min ?? "100",
      max_fiat: over.max ?? "50000",
      payee_name: "Li Wei",
      bank_name: "Bank of Test",
      bank_account: "6222 0000 1111 2222",
      bank_branch: "Main branch",
      note: "",
    },
    "op:test",
  );
  if (stock !== "0") {
    await moveMerchantStock(db, "fund", { merchant_id: m.id, amount: stock }, "op:test");
  }
  return m;
}

async function coinBalance(userId: number, coin = "USDT") {
  const row = (await getUserBalances(db, userId, "real")).find(
    (b) => b.wallet === "exchange" && b.currency === coin,
  );
  return new MoneyDecimal(row?.available ?? 0).toFixed();
}
const refusal = (p: Promise<unknown>) =>
  p.then(
    () => "resolved",
    (e: unknown) => (e instanceof AppError ? e.code : String(e)),
  );

describe("c2c orders", () => {
  it("goes unmatched → matched → paid → completed: coins move from escrow to the user once", async () => {
    const m = await merchant("1000");
    const user = await createC2cUser(db);
    const order = await createC2cOrder(withScheduler(), user, {
      merchant_id: m.id,
      coin: "USDT",
      mode: "fiat",
      amount: "720",
    });
    expect(order).toMatchObject({ status: "matched", price: "7.2", fiatAmount: "720", coinAmount: "100" });
    expect(order.payee).toMatchObject({ payeeName: "Li Wei", bankAccount: "6222 0000 1111 2222" });
    // The deadline is exactly 3 hours (policy) after the match, and its job is scheduled for it.
    expect(order.expiresAt.getTime()).toBe(clock.now.getTime() + THREE_HOURS);
    expect(scheduled.at(-1)).toEqual({ orderId: order.id, at: order.expiresAt });
    expect(await ledgerStock(db, m.id)).toEqual({ escrow: "900", reserved: "100" });

    const proof = await createProofUpload(db, user.id);
    const paid = await submitC2cProof(deps(), user, {
      order_id: order.id,
      proof_upload_id: proof,
      note: "wired",
    });
    expect(paid).toMatchObject({ status: "paid", hasProof: true, clockRunning: false });
    const done = await confirmC2cOrder(deps(), order.id, "op:finance");
    expect(done.status).toBe("completed");
    expect(await coinBalance(user.id)).toBe("100");
    expect(await ledgerStock(db, m.id)).toEqual({ escrow: "900", reserved: "0" });
    // Confirming again changes nothing.
    expect(await refusal(confirmC2cOrder(deps(), order.id, "op:finance"))).toBe("C2C_ORDER_STATE");
    expect(await coinBalance(user.id)).toBe("100");
  });

  it("refuses coins finer than the coin's decimals and fiat finer than the cent, naming the field, changing nothing", async () => {
    const m = await merchant("1000");
    const user = await createC2cUser(db);
    const input = { merchant_id: m.id, coin: "USDT" } as const;
    for (const [mode, amount, decimals] of [
      ["coin", "10.1234567", 6],
      ["fiat", "720.001", 2],
    ] as const) {
      const e = await createC2cOrder(deps(), user, { ...input, mode, amount }).then(
        () => null,
        (error: unknown) => error as AppError,
      );
      expect([e?.code, e?.params, e?.field], `${mode} ${amount}`).toEqual([
        "AMOUNT_TOO_PRECISE",
        { decimals },
        "amount",
      ]);
      expect(await refusal(quoteC2cOrder(db, { ...input, mode, amount }))).toBe("AMOUNT_TOO_PRECISE");
    }
    expect(await listC2cOrders(db, user.id, { scope: "all", page: 1, page_size: 20 })).toMatchObject({
      total: 0,
    });
    expect(await ledgerStock(db, m.id)).toEqual({ escrow: "1000", reserved: "0" });
  });

  it("cuts the coins a fiat amount buys to the coin's decimals, shown in the quote: no balance holds dust", async () => {
    const m = await merchant("1000", { price: "7.3" });
    const user = await createC2cUser(db);
    const input = { merchant_id: m.id, coin: "USDT", mode: "fiat", amount: "1000" } as const;
    // 1000 ÷ 7.3 = 136.98630136… → USDT holds 6 decimals: 136.986301.
    expect(await quoteC2cOrder(db, input)).toMatchObject({ fiatAmount: "1000", coinAmount: "136.986301" });
    const order = await createC2cOrder(deps(), user, input);
    expect(order.coinAmount).toBe("136.986301");
    const proof = await createProofUpload(db, user.id);
    await submitC2cProof(deps(), user, { order_id: order.id, proof_upload_id: proof, note: "" });
    await confirmC2cOrder(deps(), order.id, "op:finance");
    expect(await coinBalance(user.id)).toBe("136.986301");
    expect((await findDustBalances(db)).filter((d) => d.userId === user.id)).toEqual([]);
  });

  it("waits unmatched while the merchant lacks stock, and is matched when stock is funded", async () => {
    const m = await merchant("10");
    const user = await createC2cUser(db);
    const order = await createC2cOrder(deps(), user, {
      merchant_id: m.id,
      coin: "USDT",
      mode: "coin",
      amount: "50",
    });
    expect(order).toMatchObject({ status: "unmatched", fiatAmount: "360", payee: null });
    expect(await refusal(matchC2cOrder(deps(), order.id, "op:x"))).toBe("C2C_STOCK_INSUFFICIENT");
    expect(await ledgerStock(db, m.id)).toEqual({ escrow: "10", reserved: "0" });
    clock.now = new Date(clock.now.getTime() + 60_000);
    const funded = await fundMerchant(deps(), { merchant_id: m.id, amount: "100" }, "op:x");
    expect(funded.matched).toBe(1);
    const matched = await getC2cOrder(db, user.id, order.id);
    expect(matched.status).toBe("matched");
    expect(matched.expiresAt.getTime()).toBe(clock.now.getTime() + THREE_HOURS);
    expect(await ledgerStock(db, m.id)).toEqual({ escrow: "60", reserved: "50" });
  });

  it("rejects with a reason shown to the user, releasing the reserved stock; a paid order too", async () => {
    const m = await merchant("500");
    const user = await createC2cUser(db);
    const a = await createC2cOrder(deps(), user, {
      merchant_id: m.id,
      coin: "USDT",
      mode: "coin",
      amount: "100",
    });
    const b = await createC2cOrder(deps(), user, {
      merchant_id: m.id,
      coin: "USDT",
      mode: "coin",
      amount: "100",
    });
    await submitC2cProof(deps(), user, {
      order_id: b.id,
      proof_upload_id: await createProofUpload(db, user.id),
      note: "",
    });
    expect(await ledgerStock(db, m.id)).toEqual({ escrow: "300", reserved: "200" });
    await rejectC2cOrder(deps(), a.id, "Payee details not matched", "op:x");
    await rejectC2cOrder(deps(), b.id, "No wire received", "op:x");
    expect(await getC2cOrder(db, user.id, b.id)).toMatchObject({
      status: "rejected",
      rejectReason: "No wire received",
    });
    expect(await ledgerStock(db, m.id)).toEqual({ escrow: "500", reserved: "0" });
    expect(await coinBalance(user.id)).toBe("0");
    // A rejected order accepts no proof and no second decision.
    expect(
      await refusal(
        submitC2cProof(deps(), user, {
          order_id: a.id,
          proof_upload_id: await createProofUpload(db, user.id),
          note: "",
        }),
      ),
    ).toBe("C2C_ORDER_STATE");
    expect(await refusal(confirmC2cOrder(deps(), b.id, "op:x"))).toBe("C2C_ORDER_STATE");
  });

  it("an operator matches a waiting order once stock is there, or rejects it; refused moves change nothing", async () => {
    const m = await merchant("0");
    const user = await createC2cUser(db);
    const input = { merchant_id: m.id, coin: "USDT", mode: "coin" as const, amount: "30" };
    const waiting = await createC2cOrder(deps(), user, input);
    const other = await createC2cOrder(deps(), user, input);
    expect([waiting.status, other.status]).toEqual(["unmatched", "unmatched"]);
    // Not matched yet: no proof, no confirmation.
    const proof = await createProofUpload(db, user.id);
    expect(
      await refusal(submitC2cProof(deps(), user, { order_id: waiting.id, proof_upload_id: proof, note: "" })),
    ).toBe("C2C_ORDER_STATE");
    expect(await refusal(confirmC2cOrder(deps(), waiting.id, "op:x"))).toBe("C2C_ORDER_STATE");
    // Stock withdrawn to zero again after funding leaves nothing to match with.
    await moveMerchantStock(db, "fund", { merchant_id: m.id, amount: "30" }, "op:x");
    const matched = await matchC2cOrder(deps(), waiting.id, "op:x");
    expect(matched).toMatchObject({ status: "matched", decidedBy: null });
    expect(await refusal(matchC2cOrder(deps(), waiting.id, "op:x"))).toBe("C2C_ORDER_STATE");
    // A matched order without a proof cannot be confirmed.
    expect(await refusal(confirmC2cOrder(deps(), waiting.id, "op:x"))).toBe("C2C_ORDER_STATE");
    // unmatched → rejected releases nothing (nothing was reserved).
    const rejected = await rejectC2cOrder(deps(), other.id, "Merchant unavailable", "op:x");
    expect(rejected).toMatchObject({ status: "rejected", rejectReason: "Merchant unavailable" });
    expect(await refusal(rejectC2cOrder(deps(), other.id, "again", "op:x"))).toBe("C2C_ORDER_STATE");
    expect(await refusal(matchC2cOrder(deps(), other.id, "op:x"))).toBe("C2C_ORDER_STATE");
    expect(await ledgerStock(db, m.id)).toEqual({ escrow: "0", reserved: "30" });
    const audit = await db.execute<{ action: string }>(
      sql`select action from audit_log where subject in (${String(waiting.id)}, ${String(other.id)}) and action like 'c2c.order.%' order by id`,
    );
    expect(audit.rows.map((r) => r.action)).toEqual(["c2c.order.match", "c2c.order.reject"]);
  });

  it("expires exactly at the deadline, releasing the stock once; a proof before it stops the clock", async () => {
    const m = await merchant("300");
    const user = await createC2cUser(db);
    const late = await createC2cOrder(deps(), user, {
      merchant_id: m.id,
      coin: "USDT",
      mode: "coin",
      amount: "100",
    });
    const payer = await createC2cOrder(deps(), user, {
      merchant_id: m.id,
      coin: "USDT",
      mode: "coin",
      amount: "100",
    });
    const start = clock.now;
    const oneMsBefore = new Date(start.getTime() + THREE_HOURS - 1);
    expect(await expireC2cOrder(db, late.id, oneMsBefore)).toEqual({
      state: "not_due",
      expiresAt: late.expiresAt,
    });
    // One millisecond before the deadline a proof is still accepted; it stops the clock.
    clock.now = oneMsBefore;
    await submitC2cProof(deps(), user, {
      order_id: payer.id,
      proof_upload_id: await createProofUpload(db, user.id),
      note: "",
    });
    const atDeadline = new Date(start.getTime() + THREE_HOURS);
    expect(await expireC2cOrder(db, late.id, atDeadline)).toEqual({ state: "expired" });
    expect(await expireC2cOrder(db, late.id, atDeadline)).toEqual({ state: "stopped", status: "expired" });
    expect(await expireC2cOrder(db, payer.id, atDeadline)).toEqual({ state: "stopped", status: "paid" });
    // A later sweep (the worker after a restart) finds nothing of these two to do.
    await expireDueC2cOrders(db, new Date(atDeadline.getTime() + 86_400_000));
    expect(await ledgerStock(db, m.id)).toEqual({ escrow: "200", reserved: "100" });
    const releases = await db.execute<{ n: number }>(
      sql`select count(*)::int as n from journal_entries where idempotency_key = ${`c2c:order:${late.id}:release`}`,
    );
    expect(releases.rows[0]?.n).toBe(1);
    // A proof at or after the deadline is refused; the expired order says so.
    clock.now = atDeadline;
    expect(
      await refusal(
        submitC2cProof(deps(), user, {
          order_id: late.id,
          proof_upload_id: await createProofUpload(db, user.id),
          note: "",
        }),
      ),
    ).toBe("C2C_ORDER_EXPIRED");
    expect((await getC2cOrder(db, user.id, late.id)).status).toBe("expired");
    // The paid order still completes after the deadline.
    await confirmC2cOrder(deps(), payer.id, "op:x");
    expect(await coinBalance(user.id)).toBe("100");
  });

  it("the buyer cancels before paying: matched stock is released once, 20 cancels at once apply once", async () => {
    const m = await merchant("500");
    const user = await createC2cUser(db);
    const order = await createC2cOrder(deps(), user, {
      merchant_id: m.id,
      coin: "USDT",
      mode: "coin",
      amount: "100",
    });
    expect(order.status).toBe("matched");
    expect(await ledgerStock(db, m.id)).toEqual({ escrow: "400", reserved: "100" });
    // Another user's cancel reaches nothing.
    const stranger = await createC2cUser(db);
    expect(await refusal(cancelC2cOrder(deps(), stranger, order.id))).toBe("C2C_ORDER_NOT_FOUND");
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, () => cancelC2cOrder(deps(), user, order.id)),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect((await getC2cOrder(db, user.id, order.id)).status).toBe("cancelled");
    expect(await ledgerStock(db, m.id)).toEqual({ escrow: "500", reserved: "0" });
    // A cancelled order takes no proof; an unmatched one cancels with nothing to release.
    expect(await refusal(cancelC2cOrder(deps(), user, order.id))).toBe("C2C_ORDER_STATE");
    const empty = await merchant("0");
    const waiting = await createC2cOrder(deps(), user, {
      merchant_id: empty.id,
      coin: "USDT",
      mode: "coin",
      amount: "20",
    });
    expect((await cancelC2cOrder(deps(), user, waiting.id)).status).toBe("cancelled");
    expect(await ledgerStock(db, empty.id)).toEqual({ escrow: "0", reserved: "0" });
  });

  it("an unmatched order expires too, with nothing to release", async () => {
    const m = await merchant("0");
    const user = await createC2cUser(db);
    const order = await createC2cOrder(deps(), user, {
      merchant_id: m.id,
      coin: "USDT",
      mode: "coin",
      amount: "20",
    });
    expect(order.status).toBe("unmatched");
    expect(await expireDueC2cOrders(db, new Date(clock.now.getTime() + THREE_HOURS))).toBeGreaterThanOrEqual(
      1,
    );
    expect((await getC2cOrder(db, user.id, order.id)).status).toBe("expired");
    expect(await ledgerStock(db, m.id)).toEqual({ escrow: "0", reserved: "0" });
  });

  it("two users racing for the last stock: one order reserves it, the other waits unmatched", async () => {
    const m = await merchant("100");
    const [a, b] = await Promise.all([createC2cUser(db), createC2cUser(db)]);
    const orders = await Promise.all(
      [a, b].map((u) =>
        createC2cOrder(deps(), u, { merchant_id: m.id, coin: "USDT", mode: "coin", amount: "100" }),
      ),
    );
    expect(orders.map((o) => o.status).sort()).toEqual(["matched", "unmatched"]);
    expect(await ledgerStock(db, m.id)).toEqual({ escrow: "0", reserved: "100" });
    const reserves = await db.execute<{ n: number }>(
      sql`select count(*)::int as n from journal_entries where kind = 'c2c.reserve' and reference_id in (${String(orders[0]?.id)}, ${String(orders[1]?.id)})`,
    );
    expect(reserves.rows[0]?.n).toBe(1);
  });

  it("50 concurrent proofs of one order apply once", async () => {
    const m = await merchant("100");
    const user = await createC2cUser(db);
    const order = await createC2cOrder(deps(), user, {
      merchant_id: m.id,
      coin: "USDT",
      mode: "coin",
      amount: "20",
    });
    const uploadsIds = await Promise.all(Array.from({ length: 50 }, () => createProofUpload(db, user.id)));
    const results = await Promise.all(
      uploadsIds.map((id) =>
        refusal(submitC2cProof(deps(), user, { order_id: order.id, proof_upload_id: id, note: "" })),
      ),
    );
    expect(results.filter((r) => r === "resolved")).toHaveLength(1);
    expect(results.filter((r) => r === "C2C_ORDER_STATE")).toHaveLength(49);
    const paid = await db.execute<{ proof_upload_id: string; status: string }>(
      sql`select proof_upload_id, status from c2c_orders where id = ${order.id}`,
    );
    expect(paid.rows[0]?.status).toBe("paid");
    expect(uploadsIds[results.indexOf("resolved")]).toBe(paid.rows[0]?.proof_upload_id);
    // The same proof sent again answers the paid order.
    const again = await submitC2cProof(deps(), user, {
      order_id: order.id,
      proof_upload_id: paid.rows[0]?.proof_upload_id as string,
      note: "",
    });
    expect(again.status).toBe("paid");
  });

  it("keeps another user's orders and uploads out of reach", async () => {
    const m = await merchant("100");
    const owner = await createC2cUser(db);
    const other = await createC2cUser(db);
    const order = await createC2cOrder(deps(), owner, {
      merchant_id: m.id,
      coin: "USDT",
      mode: "coin",
      amount: "20",
    });
    expect(await refusal(getC2cOrder(db, other.id, order.id))).toBe("C2C_ORDER_NOT_FOUND");
    const otherProof = await createProofUpload(db, other.id);
    expect(
      await refusal(
        submitC2cProof(deps(), other, { order_id: order.id, proof_upload_id: otherProof, note: "" }),
      ),
    ).toBe("C2C_ORDER_NOT_FOUND");
    // The owner cannot submit someone else's upload as the proof.
    expect(
      await refusal(
        submitC2cProof(deps(), owner, { order_id: order.id, proof_upload_id: otherProof, note: "" }),
      ),
    ).toBe("NOT_FOUND");
    expect((await listC2cOrders(db, other.id, { scope: "all", page: 1, page_size: 20 })).total).toBe(0);
    expect((await getC2cOrder(db, owner.id, order.id)).status).toBe("matched");
  });

  it("refuses without primary KYC, outside the range, a paused merchant, or past the open-order limit", async () => {
    const m = await merchant("10000", { min: "100", max: "1000" });
    const unverified = await createC2cUser(db, false);
    const input = { merchant_id: m.id, coin: "USDT", mode: "fiat" as const, amount: "720" };
    expect(await refusal(createC2cOrder(deps(), unverified, input))).toBe("KYC_REQUIRED");
    const user = await createC2cUser(db);
    expect(await refusal(createC2cOrder(deps(), user, { ...input, amount: "99.99" }))).toBe(
      "C2C_AMOUNT_RANGE",
    );
    expect(await refusal(createC2cOrder(deps(), user, { ...input, amount: "1000.01" }))).toBe(
      "C2C_AMOUNT_RANGE",
    );
    expect(await refusal(createC2cOrder(deps(), user, { ...input, coin: "BTC" }))).toBe(
      "C2C_MERCHANT_NOT_FOUND",
    );
    await setMerchantStatus(db, m.id, "paused", "op:x");
    expect(await refusal(createC2cOrder(deps(), user, input))).toBe("C2C_MERCHANT_NOT_FOUND");
    await setMerchantStatus(db, m.id, "active", "op:x");
    for (let i = 0; i < 3; i += 1) {
      await createC2cOrder(deps(), user, input);
    }
    expect(await refusal(createC2cOrder(deps(), user, input))).toBe("C2C_TOO_MANY_OPEN");
    // Withdrawing more stock than is free is refused; nothing changed.
    expect(
      await refusal(moveMerchantStock(db, "withdraw", { merchant_id: m.id, amount: "9701" }, "op:x")),
    ).toBe("C2C_STOCK_INSUFFICIENT");
    await moveMerchantStock(db, "withdraw", { merchant_id: m.id, amount: "9700" }, "op:x");
    expect(await ledgerStock(db, m.id)).toEqual({ escrow: "0", reserved: "300" });
  });

  it("quotes the cheapest merchant that can fill the order now", async () => {
    const coin = "ETH";
    await merchant("0", { coin, price: "20000" });
    const stocked = await merchant("5", { coin, price: "21000" });
    await merchant("5", { coin, price: "22000" });
    const quote = await quoteC2cOrder(db, { coin, mode: "coin", amount: "1" });
    expect(quote).toMatchObject({
      merchantId: stocked.id,
      price: "21000",
      fiatAmount: "21000",
      inStock: true,
    });
    expect(await refusal(quoteC2cOrder(db, { coin: "XRP", mode: "coin", amount: "1" }))).toBe(
      "C2C_NO_MERCHANT",
    );
  });

  it("refuses an order at a price other than the one the user confirmed, changing nothing", async () => {
    const m = await merchant("100", { price: "7.2" });
    const user = await createC2cUser(db);
    const input = { merchant_id: m.id, coin: "USDT", mode: "coin" as const, amount: "20", price: "7.2" };
    await updateMerchant(
      db,
      m.id,
      {
        name: m.name,
        coin: "USDT",
        fiat: "CNY",
        price: "7.5",
        min_fiat: "100",
        max_fiat: "50000",
        payee_name: "Li Wei",
        bank_name: "Bank of Test",
        bank_account: "6222 0000 1111 2222",
        bank_branch: "",
        note: "",
      },
      "op:x",
    );
    expect(await refusal(createC2cOrder(deps(), user, input))).toBe("C2C_PRICE_CHANGED");
    expect((await listC2cOrders(db, user.id, { scope: "all", page: 1, page_size: 20 })).total).toBe(0);
    expect(await ledgerStock(db, m.id)).toEqual({ escrow: "100", reserved: "0" });
    const order = await createC2cOrder(deps(), user, { ...input, price: "7.50" });
    expect(order).toMatchObject({ status: "matched", price: "7.5", fiatAmount: "150" });
  });

  it("keeps a merchant's coin once it has an order: the change is refused naming the coin, nothing changes", async () => {
    // Issue 31: a USDT merchant without stock, a user's 50 USDT order waiting on it, the coin
    // changed to BTC and 100 BTC funded: the order must never be paid in USDT that was never funded.
    const m = await merchant("0");
    const user = await createC2cUser(db);
    const order = await createC2cOrder(deps(), user, {
      merchant_id: m.id,
      coin: "USDT",
      mode: "coin",
      amount: "50",
    });
    expect(order.status).toBe("unmatched");
    const details = {
      name: m.name,
      coin: "BTC",
      fiat: "CNY",
      price: "7.2",
      min_fiat: "100",
      max_fiat: "50000",
      payee_name: "Li Wei",
      bank_name: "Bank of Test",
      bank_account: "6222 0000 1111 2222",
      bank_branch: "",
      note: "",
    };
    const error = await updateMerchant(db, m.id, details, "op:x").then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: "C2C_MERCHANT_COIN_LOCKED", field: "coin" });
    const [row] = (
      await db.execute<{ coin: string; price: string }>(
        sql`select coin, price::text from c2c_merchants where id = ${m.id}`,
      )
    ).rows;
    expect(row?.coin).toBe("USDT");
    // Other details still change; the coin stays.
    const updated = await updateMerchant(db, m.id, { ...details, coin: "USDT", price: "7.3" }, "op:x");
    expect(updated).toMatchObject({ coin: "USDT", price: "7.3" });
    // The waiting order matches only USDT funded into this merchant.
    await fundMerchant(deps(), { merchant_id: m.id, amount: "50" }, "op:x");
    expect((await getC2cOrder(db, user.id, order.id)).status).toBe("matched");
    expect(await ledgerStock(db, m.id)).toEqual({ escrow: "0", reserved: "50" });
  });

  it("binds an order to its coin: a merchant whose coin changed under it never fills it, in any coin", async () => {
    const m = await merchant("0");
    const user = await createC2cUser(db);
    const order = await createC2cOrder(deps(), user, {
      merchant_id: m.id,
      coin: "USDT",
      mode: "coin",
      amount: "50",
    });
    // A merchant row whose coin changed while an order waited (as the back office allowed before).
    await db.execute(sql`update c2c_merchants set coin = 'BTC' where id = ${m.id}`);
    const funded = await fundMerchant(deps(), { merchant_id: m.id, amount: "100" }, "op:x");
    expect(funded.matched).toBe(0);
    expect(await refusal(matchC2cOrder(deps(), order.id, "op:x"))).toBe("C2C_STOCK_INSUFFICIENT");
    expect((await getC2cOrder(db, user.id, order.id)).status).toBe("unmatched");
    expect(await refusal(confirmC2cOrder(deps(), order.id, "op:x"))).toBe("C2C_ORDER_STATE");
    expect(await coinBalance(user.id, "USDT")).toBe("0");
    expect(await coinBalance(user.id, "BTC")).toBe("0");
    const escrow = await db.execute<{ currency: string; balance: string }>(
      sql`select currency, balance::text from ledger_accounts where system_code = ${`c2c_escrow:${m.id}`} order by currency`,
    );
    expect(escrow.rows.map((r) => [r.currency, new MoneyDecimal(r.balance).toFixed()])).toEqual([
      ["BTC", "100"],
    ]);
    // A new USDT order never picks this merchant; a BTC one does, and is paid in BTC.
    expect(
      await refusal(
        createC2cOrder(deps(), user, { merchant_id: m.id, coin: "USDT", mode: "coin", amount: "20" }),
      ),
    ).toBe("C2C_MERCHANT_NOT_FOUND");
    const btc = await createC2cOrder(deps(), user, {
      merchant_id: m.id,
      coin: "BTC",
      mode: "coin",
      amount: "20",
    });
    expect(btc).toMatchObject({ status: "matched", coin: "BTC" });
    await submitC2cProof(deps(), user, {
      order_id: btc.id,
      proof_upload_id: await createProofUpload(db, user.id),
      note: "",
    });
    await confirmC2cOrder(deps(), btc.id, "op:x");
    expect(await coinBalance(user.id, "BTC")).toBe("20");
    expect(await coinBalance(user.id, "USDT")).toBe("0");
    expect(await ledgerStock(db, m.id)).toEqual({ escrow: "80", reserved: "0" });
    await rejectC2cOrder(deps(), order.id, "Merchant changed coin", "op:x");
  });

  it("saves the user's own payment settings", async () => {
    const user = await createC2cUser(db);
    expect(await getPaymentSettings(db, user.id)).toBeNull();
    await savePaymentSettings(db, user.id, {
      name: "Li Wei",
      bank_name: "Bank",
      bank_number: "6222 1234",
      alipay_account: "li@example.com",
      weixin_nickname: "",
      weixin_account: "",
    });
    expect(await getPaymentSettings(db, user.id)).toMatchObject({
      name: "Li Wei",
      alipay_account: "li@example.com",
    });
  });
});
