import { useHotWalletPayouts } from "@northstar/domain/chain";
import { MoneyDecimal } from "@northstar/shared/money";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectOk, expectTrpcRefusal, query } from "../test/fixtures.ts";
import { createHarness, type Harness } from "../test/harness.ts";
import {
  addAddress,
  admin,
  balanceOf,
  dataOf,
  expectLedgerBalanced,
  grant,
  norm,
  operatorToken,
  policy,
  setTradePassword,
  systemBalance,
  userIdOf,
} from "../test/money.ts";

/** What happens after an application: the 5% fee, approval, rejection, cancellation, and the ledger. */
let h: Harness;
let op: string;
beforeAll(async () => {
  h = await createHarness();
  op = await operatorToken(h, "finance");
  await policy(h, "funding.withdraw.window", { start: 0, end: 24, timeZone: "Asia/Hong_Kong" });
});
afterAll(async () => {
  await h?.close();
});

type Withdrawal = {
  id: number;
  status: string;
  amount: string;
  fee: string;
  received: string;
  rejectReason: string | null;
};
type Ready = { token: string; userId: number; addressId: number };
async function readyUser(funds: string): Promise<Ready> {
  const u = await h.registerByEmail();
  await setTradePassword(h, u);
  const userId = await userIdOf(h, u.token);
  await grant(h, userId, funds);
  return { token: u.token, userId, addressId: await addAddress(h, u.token) };
}
const apply = async (u: Ready, amount: string) =>
  dataOf<Withdrawal>(
    await h.trpc(
      "withdrawal.create",
      { currency: "USDT", address_id: u.addressId, amount, trade_password: "123456" },
      u.token,
    ),
  );
const entries = async (id: number) =>
  query<{ kind: string }>(
    h,
    "select kind from journal_entries where reference_type = 'withdrawal' and reference_id = $1 order by id",
    [String(id)],
  );
const mine = async (u: Ready) =>
  dataOf<Withdrawal[]>(await h.trpc("withdrawal.getMany", {}, u.token, "query"));

describe("withdrawal fee and approval", () => {
  it("takes a 5% fee: 200 → fee 10, received 190, shown before applying", async () => {
    const u = await readyUser("200");
    expect(dataOf(await h.trpc("withdrawal.fee", { amount: "200" }, u.token, "query"))).toEqual({
      fee: "10",
      received: "190",
    });
    const w = await apply(u, "200");
    expect([norm(w.amount), norm(w.fee), norm(w.received), w.status]).toEqual([
      "200",
      "10",
      "190",
      "pending",
    ]);
    expect(await balanceOf(h, u.userId)).toEqual({ available: "0", held: "200" });
  });

  it("rounds the fee up to the currency's decimals, so the amount received can be sent", async () => {
    const u = await readyUser("100.000001");
    // 5% of 100.000001 is 5.00000005; USDT is held to 6 decimals.
    expect(dataOf(await h.trpc("withdrawal.fee", { amount: "100.000001" }, u.token, "query"))).toEqual({
      fee: "5.000001",
      received: "95",
    });
    const w = await apply(u, "100.000001");
    expect([norm(w.fee), norm(w.received)]).toEqual(["5.000001", "95"]);
  });

  it("approves: success, the hold leaves, received to the clearing account and the fee to fees, once", async () => {
    const u = await readyUser("500");
    const w = await apply(u, "200");
    const [fees, clearing] = [
      await systemBalance(h, "fees"),
      await systemBalance(h, "withdrawal_clearing:crypto"),
    ];

    expectOk(await admin(h, "approveWithdrawal", { id: w.id }, op));
    const after = async () => ({
      user: await balanceOf(h, u.userId),
      fees: await systemBalance(h, "fees"),
      clearing: await systemBalance(h, "withdrawal_clearing:crypto"),
    });
    const once = await after();
    expect(once).toEqual({
      user: { available: "300", held: "0" },
      fees: new MoneyDecimal(fees).plus(10).toFixed(),
      clearing: new MoneyDecimal(clearing).plus(190).toFixed(),
    });
    expect((await mine(u))[0]).toMatchObject({ id: w.id, status: "success" });

    expectTrpcRefusal(await admin(h, "approveWithdrawal", { id: w.id }, op), "ALREADY_REVIEWED");
    expectTrpcRefusal(
      await admin(h, "rejectWithdrawal", { id: w.id, reason: "late" }, op),
      "ALREADY_REVIEWED",
    );
    expectTrpcRefusal(await h.trpc("withdrawal.cancel", { id: w.id }, u.token), "ALREADY_REVIEWED");
    expect(await after()).toEqual(once);
    expect((await entries(w.id)).map((e) => e.kind)).toEqual(["withdrawal.hold", "withdrawal.approve"]);
  });

  it("lets exactly one of two parallel approvals through", async () => {
    const u = await readyUser("100");
    const w = await apply(u, "100");
    const results = await Promise.all([
      admin(h, "approveWithdrawal", { id: w.id }, op),
      admin(h, "approveWithdrawal", { id: w.id }, op),
      admin(h, "rejectWithdrawal", { id: w.id, reason: "race" }, op),
    ]);
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of results.filter((x) => x.status !== 200)) {
      expectTrpcRefusal(r, "ALREADY_REVIEWED");
    }
    expect(await balanceOf(h, u.userId)).toEqual(
      (await mine(u))[0]?.status === "success"
        ? { available: "0", held: "0" }
        : { available: "100", held: "0" },
    );
    expect(await entries(w.id)).toHaveLength(2);
  });
});

describe("bank withdrawals", () => {
  it("withdraws to the user's own bank card, to the bank clearing account on approval", async () => {
    const u = await readyUser("1000");
    const other = await readyUser("0.01");
    const card = {
      bank_name: "HSBC",
      account: "Chan Tai Man",
      card_id: "004-123-456789-001",
      swift_code: "HSBCHKHHHKH",
      payee_name: "Chan Tai Man",
    };
    const mine = dataOf<{ id: number }>(await h.trpc("bankCard.create", card, u.token));
    const theirs = dataOf<{ id: number }>(await h.trpc("bankCard.create", card, other.token));
    const bank = (bankCardId: number) =>
      h.trpc(
        "withdrawal.create",
        {
          method: "bank",
          currency: "USDT",
          bank_card_id: bankCardId,
          amount: "500",
          trade_password: "123456",
        },
        u.token,
      );
    expectTrpcRefusal(await bank(theirs.id), "NOT_FOUND");
    const w = dataOf<Withdrawal & { method: string; bankCardId: number }>(await bank(mine.id));
    expect([w.method, w.bankCardId, norm(w.fee), norm(w.received)]).toEqual(["bank", mine.id, "25", "475"]);
    const clearing = await systemBalance(h, "withdrawal_clearing:bank");
    expectOk(await admin(h, "approveWithdrawal", { id: w.id }, op));
    expect(await systemBalance(h, "withdrawal_clearing:bank")).toBe(
      new MoneyDecimal(clearing).plus(475).toFixed(),
    );
    expect(await balanceOf(h, u.userId)).toEqual({ available: "500", held: "0" });
  });
});

describe("withdrawals the hot wallet pays", () => {
  it("approves into the signer's queue: held until the chain confirms, enqueued, released only when waiting", async () => {
    useHotWalletPayouts({
      network: "ERC20",
      chainId: 1337,
      rpcUrl: "http://127.0.0.1:1",
      xpub: null,
      nativeCurrency: "ETH",
      tokens: [{ currency: "USDT", address: "0x5fbdb2315678afecb367f032d93f642f64180aa3", decimals: 6 }],
    });
    try {
      const u = await readyUser("400");
      const w = await apply(u, "200");
      expectOk(await admin(h, "approveWithdrawal", { id: w.id }, op));
      expect((await mine(u))[0]).toMatchObject({ id: w.id, status: "queued" });
      // Nothing has left yet: the amount stays held, no payout entry.
      expect(await balanceOf(h, u.userId)).toEqual({ available: "200", held: "200" });
      expect((await entries(w.id)).map((e) => e.kind)).toEqual(["withdrawal.hold"]);
      const job = await h.redis.hgetall(`${h.redisPrefix}:hot-wallet:pay-withdrawal-${w.id}`);
      expect(JSON.parse(job.data ?? "{}")).toEqual({ withdrawalId: w.id });

      // Only a withdrawal waiting over the daily limit can be released, by a finance operator.
      expectTrpcRefusal(await admin(h, "releaseWithdrawal", { id: w.id }, op), "ALREADY_REVIEWED");
      const support = await operatorToken(h, "support");
      expectTrpcRefusal(await admin(h, "releaseWithdrawal", { id: w.id }, support), "FORBIDDEN");
      expectTrpcRefusal(
        await admin(h, "rejectWithdrawal", { id: w.id, reason: "late" }, op),
        "ALREADY_REVIEWED",
      );
      expectTrpcRefusal(await h.trpc("withdrawal.cancel", { id: w.id }, u.token), "ALREADY_REVIEWED");
      const queued = dataOf<Withdrawal[]>(await admin(h, "withdrawals", { status: "queued" }, op, "query"));
      expect(queued.map((x) => x.id)).toContain(w.id);
    } finally {
      useHotWalletPayouts(null);
    }
  });
});

describe("withdrawal rejection and cancellation", () => {
  it("rejects: failed with the reason, the hold released, audited", async () => {
    const u = await readyUser("300");
    const w = await apply(u, "150");
    expect(await balanceOf(h, u.userId)).toEqual({ available: "150", held: "150" });
    expectOk(await admin(h, "rejectWithdrawal", { id: w.id, reason: "address on a sanctions list" }, op));
    expect(await balanceOf(h, u.userId)).toEqual({ available: "300", held: "0" });
    expect((await mine(u))[0]).toMatchObject({
      status: "failed",
      rejectReason: "address on a sanctions list",
    });
    expectTrpcRefusal(await admin(h, "approveWithdrawal", { id: w.id }, op), "ALREADY_REVIEWED");
    expect(await balanceOf(h, u.userId)).toEqual({ available: "300", held: "0" });
    expect((await entries(w.id)).map((e) => e.kind)).toEqual(["withdrawal.hold", "withdrawal.reject"]);

    const me = dataOf<{ id: number }>(await admin(h, "me", undefined, op, "query"));
    const audit = await query<{ actor: string; action: string }>(
      h,
      "select actor, action from audit_log where subject = $1 and action like 'withdrawal.%'",
      [String(w.id)],
    );
    expect(audit).toEqual([{ actor: `operator:${me.id}`, action: "withdrawal.reject" }]);
  });

  it("lets the user cancel while pending: cancelled, released, and only their own", async () => {
    const u = await readyUser("300");
    const other = await readyUser("300");
    const w = await apply(u, "120");
    expectTrpcRefusal(await h.trpc("withdrawal.cancel", { id: w.id }, other.token), "NOT_FOUND");
    expect(await balanceOf(h, u.userId)).toEqual({ available: "180", held: "120" });
    expectOk(await h.trpc("withdrawal.cancel", { id: w.id }, u.token));
    expect(await balanceOf(h, u.userId)).toEqual({ available: "300", held: "0" });
    expect((await mine(u))[0]).toMatchObject({ id: w.id, status: "cancelled" });
    expectTrpcRefusal(await h.trpc("withdrawal.cancel", { id: w.id }, u.token), "ALREADY_REVIEWED");
    expectTrpcRefusal(await admin(h, "approveWithdrawal", { id: w.id }, op), "ALREADY_REVIEWED");
    expect(await balanceOf(h, u.userId)).toEqual({ available: "300", held: "0" });
    expect((await entries(w.id)).map((e) => e.kind)).toEqual(["withdrawal.hold", "withdrawal.cancel"]);
    expect(await mine(other)).toEqual([]);
  });

  it("lets only finance and admin operators review", async () => {
    const u = await readyUser("100");
    const w = await apply(u, "100");
    const support = await operatorToken(h, "support");
    expectTrpcRefusal(await admin(h, "approveWithdrawal", { id: w.id }, support), "FORBIDDEN");
    expectTrpcRefusal(await admin(h, "rejectWithdrawal", { id: w.id, reason: "x" }, support), "FORBIDDEN");
    expectTrpcRefusal(await admin(h, "withdrawals", { status: "pending" }, support, "query"), "FORBIDDEN");
    expectTrpcRefusal(await admin(h, "approveWithdrawal", { id: 999_999 }, op), "NOT_FOUND");
    expect((await mine(u))[0]).toMatchObject({ status: "pending" });
    const queue = dataOf<Withdrawal[]>(await admin(h, "withdrawals", { status: "pending" }, op, "query"));
    expect(queue.map((x) => x.id)).toContain(w.id);
    const chief = await operatorToken(h, "admin");
    expectOk(await admin(h, "approveWithdrawal", { id: w.id }, chief));
  });

  it("leaves the ledger balanced after all of the above", async () => {
    const report = await expectLedgerBalanced(h);
    const usdt = report.totals.find((t) => t.book === "real" && t.currency === "USDT");
    expect(new MoneyDecimal(usdt?.users ?? "1").plus(usdt?.system ?? "0").isZero()).toBe(true);
  });
});
