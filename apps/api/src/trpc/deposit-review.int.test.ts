import { translate } from "@northstar/shared/i18n";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectOk, expectTrpcRefusal, query } from "../test/fixtures.ts";
import { createHarness, type Harness } from "../test/harness.ts";
import {
  ADDR,
  admin,
  balanceOf,
  dataOf,
  expectLedgerBalanced,
  norm,
  operatorToken,
  setDepositAddress,
  submitDeposit,
  userIdOf,
} from "../test/money.ts";

/** Operators confirm or reject deposits: credited exactly once, role-checked, audited. */
let h: Harness;
let op: string;
beforeAll(async () => {
  h = await createHarness();
  op = await operatorToken(h, "finance");
  await setDepositAddress(h, op, "USDT", "ERC20", ADDR.ERC20);
  await setDepositAddress(h, op, "BTC", "BTC", ADDR.BTC);
});
afterAll(async () => {
  await h?.close();
});

type Deposit = { id: number; userId: number; status: string; amount: string; currency: string };
const entriesFor = async (depositId: number) =>
  (
    await query<{ n: number }>(
      h,
      "select count(*)::int as n from journal_entries where reference_type = 'deposit' and reference_id = $1",
      [String(depositId)],
    )
  )[0]?.n;

describe("operator review of deposits", () => {
  it("confirms once: credits the exchange wallet, values it in USDT, and refuses a second confirm", async () => {
    const u = await h.registerByEmail();
    const userId = await userIdOf(h, u.token);
    const d = dataOf<Deposit>(
      await submitDeposit(h, u.token, { currency: "BTC", chain: "BTC", amount: "0.5" }),
    );
    const confirmed = dataOf<Deposit>(await admin(h, "confirmDeposit", { id: d.id }, op));
    expect(confirmed.status).toBe("success");
    expect(await balanceOf(h, userId, "BTC")).toEqual({ available: "0.5", held: "0" });

    const again = await admin(h, "confirmDeposit", { id: d.id }, op);
    expectTrpcRefusal(again, "ALREADY_REVIEWED");
    expectTrpcRefusal(await admin(h, "rejectDeposit", { id: d.id, reason: "late" }, op), "ALREADY_REVIEWED");
    expect(await balanceOf(h, userId, "BTC")).toEqual({ available: "0.5", held: "0" });
    expect(await entriesFor(d.id)).toBe(1);

    const [row] = await query<{ status: string; value_usdt: string; reviewed_by: string }>(
      h,
      "select status, value_usdt::text, reviewed_by::text from deposits where id = $1",
      [d.id],
    );
    expect(row?.status).toBe("success");
    expect(norm(row?.value_usdt)).toBe("45000");
    const user = dataOf<{ id: number }[] | unknown>(await h.trpc("deposit.getMany", {}, u.token, "query"));
    expect(user).toMatchObject([{ id: d.id, status: "success" }]);
  });

  it("lets exactly one of two parallel confirms through", async () => {
    const u = await h.registerByEmail();
    const userId = await userIdOf(h, u.token);
    const d = dataOf<Deposit>(await submitDeposit(h, u.token, { amount: "123.45" }));
    const op2 = await operatorToken(h, "admin");
    const results = await Promise.all([
      admin(h, "confirmDeposit", { id: d.id }, op),
      admin(h, "confirmDeposit", { id: d.id }, op2),
    ]);
    const ok = results.filter((r) => r.status === 200);
    const refused = results.filter((r) => r.status !== 200);
    expect(ok).toHaveLength(1);
    expect(refused).toHaveLength(1);
    expectTrpcRefusal(refused[0] as (typeof results)[number], "ALREADY_REVIEWED");
    expect(await balanceOf(h, userId)).toEqual({ available: "123.45", held: "0" });
    expect(await entriesFor(d.id)).toBe(1);
  });

  it("rejects: failed with the reason, nothing credited, and no later confirm", async () => {
    const u = await h.registerByEmail();
    const userId = await userIdOf(h, u.token);
    const d = dataOf<Deposit>(await submitDeposit(h, u.token, { amount: "50" }));
    expectOk(await admin(h, "rejectDeposit", { id: d.id, reason: "proof unreadable" }, op));
    expectTrpcRefusal(await admin(h, "confirmDeposit", { id: d.id }, op), "ALREADY_REVIEWED");
    expect(await balanceOf(h, userId)).toEqual({ available: "0", held: "0" });
    expect(await entriesFor(d.id)).toBe(0);
    expect(dataOf(await h.trpc("deposit.getMany", {}, u.token, "query"))).toMatchObject([
      { id: d.id, status: "failed", rejectReason: "proof unreadable" },
    ]);
    expectTrpcRefusal(await admin(h, "confirmDeposit", { id: 999_999 }, op), "NOT_FOUND");
    expectTrpcRefusal(await admin(h, "rejectDeposit", { id: 999_999, reason: "x" }, op), "NOT_FOUND");
  });

  it("checks the operator's role and session", async () => {
    const u = await h.registerByEmail();
    const d = dataOf<Deposit>(await submitDeposit(h, u.token, { amount: "10" }));
    const support = await operatorToken(h, "support");
    const content = await operatorToken(h, "content");
    for (const token of [support, content]) {
      const res = await admin(h, "confirmDeposit", { id: d.id }, token);
      expectTrpcRefusal(res, "FORBIDDEN");
      expect(res.body.error?.message).toBe(translate("en", "errors.FORBIDDEN"));
      expectTrpcRefusal(await admin(h, "rejectDeposit", { id: d.id, reason: "x" }, token), "FORBIDDEN");
      expectTrpcRefusal(
        await admin(h, "setDepositAddress", { currency: "USDT", chain: "ERC20", address: ADDR.ERC20 }, token),
        "FORBIDDEN",
      );
    }
    expectTrpcRefusal(await admin(h, "confirmDeposit", { id: d.id }, undefined), "LOGIN_REQUIRED", {
      responseCode: 2000,
    });
    // A user's session is not an operator's.
    expectTrpcRefusal(await admin(h, "confirmDeposit", { id: d.id }, u.token), "LOGIN_REQUIRED", {
      responseCode: 2000,
    });
    expect(dataOf(await h.trpc("deposit.getMany", {}, u.token, "query"))).toMatchObject([
      { status: "pending" },
    ]);
  });

  it("writes an audit row for every confirm and reject, naming the operator", async () => {
    const u = await h.registerByEmail();
    const [d1, d2] = [
      dataOf<Deposit>(await submitDeposit(h, u.token, { amount: "10" })),
      dataOf<Deposit>(await submitDeposit(h, u.token, { amount: "20" })),
    ];
    const me = dataOf<{ id: number }>(await admin(h, "me", undefined, op, "query"));
    expectOk(await admin(h, "confirmDeposit", { id: d1.id }, op));
    expectOk(await admin(h, "rejectDeposit", { id: d2.id, reason: "duplicate" }, op));
    const rows = await query<{
      actor: string;
      action: string;
      subject: string;
      details: Record<string, unknown>;
    }>(
      h,
      "select actor, action, subject, details from audit_log where subject in ($1, $2) and action like 'deposit.%' order by id",
      [String(d1.id), String(d2.id)],
    );
    expect(rows).toEqual([
      {
        actor: `operator:${me.id}`,
        action: "deposit.confirm",
        subject: String(d1.id),
        details: expect.objectContaining({ currency: "USDT" }),
      },
      {
        actor: `operator:${me.id}`,
        action: "deposit.reject",
        subject: String(d2.id),
        details: { reason: "duplicate" },
      },
    ]);
    // A refused second review writes nothing.
    expectTrpcRefusal(await admin(h, "confirmDeposit", { id: d1.id }, op), "ALREADY_REVIEWED");
    const [count] = await query<{ n: number }>(
      h,
      "select count(*)::int as n from audit_log where subject = $1 and action like 'deposit.%'",
      [String(d1.id)],
    );
    expect(count?.n).toBe(1);
    await expectLedgerBalanced(h);
  });
});
