import { ResponseCode } from "@northstar/shared/errors";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runAdminCli } from "../test/cli.ts";
import { expectOk, expectRefusal, expectTrpcRefusal, loginByEmail, query } from "../test/fixtures.ts";
import { createHarness, type Harness } from "../test/harness.ts";
import {
  addAddress,
  admin,
  balanceOf,
  dataOf,
  grant,
  operatorToken,
  policy,
  setTradePassword,
  userIdOf,
} from "../test/money.ts";

/**
 * An operator freezes a user (issue 31): every session ends with code 1000, sign-in is refused with
 * a translated message, no money action goes through, and the reason is audited; unfreezing lets
 * the user sign in and act again. Only roles holding `users.freeze` may do either.
 */
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
  await policy(h, "funding.withdraw.window", { start: 0, end: 24, timeZone: "Asia/Hong_Kong" });
});
afterAll(async () => {
  await h?.close();
});

const withdrawal = (addressId: number) => ({
  currency: "USDT",
  address_id: addressId,
  amount: "100",
  trade_password: "123456",
});

async function readyUser() {
  const u = await h.registerByEmail();
  const userId = await userIdOf(h, u.token);
  await grant(h, userId, "1000");
  await setTradePassword(h, u);
  const addressId = await addAddress(h, u.token);
  return { ...u, userId, addressId };
}

const audits = (userId: number) =>
  query<{ actor: string; action: string; details: { reason?: string; before?: unknown; after?: unknown } }>(
    h,
    "select actor, action, details from audit_log where subject = $1 order by id",
    [`user:${userId}`],
  );

describe("freezing a user", () => {
  it("ends every session (1000), refuses sign-in and money actions, audits the reason; unfreezing restores", async () => {
    const u = await readyUser();
    const second = await loginByEmail(h, u.email, u.password);
    const op = await operatorToken(h, "compliance");

    const frozen = await admin(h, "freezeUser", { user_id: u.userId, reason: "Chargeback under review" }, op);
    expect(dataOf<{ status: string; sessionsEnded: number }>(frozen)).toMatchObject({
      status: "frozen",
      sessionsEnded: 2,
    });
    const [user] = await query<{ status: string }>(h, "select status from users where id = $1", [u.userId]);
    expect(user?.status).toBe("frozen");
    const live = await query<{ n: number }>(
      h,
      "select count(*)::int as n from sessions where user_id = $1 and revoked_at is null",
      [u.userId],
    );
    expect(live).toEqual([{ n: 0 }]);
    const reasons = await query<{ reason: string }>(
      h,
      "select distinct revoke_reason as reason from sessions where user_id = $1",
      [u.userId],
    );
    expect(reasons).toEqual([{ reason: "frozen" }]);

    // The sessions the user had: ended by the server, on tRPC and on the legacy calls alike.
    for (const token of [u.token, second]) {
      expectTrpcRefusal(await h.trpc("withdrawal.create", withdrawal(u.addressId), token), "SESSION_ENDED", {
        responseCode: ResponseCode.SessionEnded,
      });
      expectTrpcRefusal(
        await h.trpc(
          "spot.place",
          { symbol: "BTCUSDT", side: "buy", type: "limit", price: "1", quantity: "1" },
          token,
        ),
        "SESSION_ENDED",
        { responseCode: ResponseCode.SessionEnded },
      );
      expectRefusal(
        await h.call("buyProfit", { token, id: "1", amount: "100", rtoken: "frozen-01" }),
        "SESSION_ENDED",
        {
          responseCode: ResponseCode.SessionEnded,
        },
      );
    }
    expectRefusal(
      await h.call("userLogin", { type: "email", account: u.email, password: u.password, lang: "zh" }),
      "ACCOUNT_FROZEN",
      { lang: "zh" },
    );
    expect(await balanceOf(h, u.userId)).toEqual({ available: "1000", held: "0" });
    expect(await query(h, "select id from withdrawals where user_id = $1", [u.userId])).toEqual([]);

    // Freezing twice changes nothing and says so.
    expectTrpcRefusal(
      await admin(h, "freezeUser", { user_id: u.userId, reason: "again" }, op),
      "STATUS_UNCHANGED",
    );

    expectOk(await admin(h, "unfreezeUser", { user_id: u.userId, reason: "Bank confirmed the payment" }, op));
    const token = await loginByEmail(h, u.email, u.password);
    expectOk(await h.trpc("withdrawal.create", withdrawal(u.addressId), token));
    expect(await balanceOf(h, u.userId)).toEqual({ available: "900", held: "100" });

    const rows = (await audits(u.userId)).filter((a) => a.action.startsWith("user."));
    expect(rows).toMatchObject([
      {
        action: "user.freeze",
        actor: expect.stringMatching(/^operator:\d+$/),
        details: {
          reason: "Chargeback under review",
          before: { status: "active" },
          after: { status: "frozen" },
        },
      },
      {
        action: "user.unfreeze",
        details: {
          reason: "Bank confirmed the payment",
          before: { status: "frozen" },
          after: { status: "active" },
        },
      },
    ]);
  });

  it("refuses an operator whose role may not freeze, and a freeze without a reason, changing nothing", async () => {
    const u = await readyUser();
    for (const role of ["support", "finance", "content"] as const) {
      const op = await operatorToken(h, role);
      expectTrpcRefusal(await admin(h, "freezeUser", { user_id: u.userId, reason: "no" }, op), "FORBIDDEN");
      expectTrpcRefusal(await admin(h, "unfreezeUser", { user_id: u.userId, reason: "no" }, op), "FORBIDDEN");
    }
    const op = await operatorToken(h, "admin");
    const blank = await admin(h, "freezeUser", { user_id: u.userId, reason: "   " }, op);
    expect(blank.body.error?.data).toMatchObject({ errorCode: "FIELD_INVALID", field: "reason" });
    expectTrpcRefusal(
      await admin(h, "unfreezeUser", { user_id: u.userId, reason: "not frozen" }, op),
      "STATUS_UNCHANGED",
    );
    const [user] = await query<{ status: string }>(h, "select status from users where id = $1", [u.userId]);
    expect(user?.status).toBe("active");
    expectOk(await h.trpc("identity.updateNickname", { nickname: "Still here" }, u.token));
    expect((await audits(u.userId)).filter((a) => a.action.startsWith("user."))).toEqual([]);
  });

  it("freezes and unfreezes from the command line, audited as the operator cli", {
    timeout: 120_000,
  }, async () => {
    const u = await readyUser();
    const freeze = await runAdminCli(h, "user:freeze", u.email, "Police request 42");
    expect(freeze.code, freeze.stderr).toBe(0);
    expectTrpcRefusal(await h.trpc("identity.updateNickname", { nickname: "x" }, u.token), "SESSION_ENDED", {
      responseCode: ResponseCode.SessionEnded,
    });
    const unfreeze = await runAdminCli(h, "user:unfreeze", u.email, "Request withdrawn");
    expect(unfreeze.code, unfreeze.stderr).toBe(0);
    await loginByEmail(h, u.email, u.password);
    expect((await audits(u.userId)).filter((a) => a.action.startsWith("user."))).toMatchObject([
      { actor: "cli", action: "user.freeze", details: { reason: "Police request 42" } },
      { actor: "cli", action: "user.unfreeze", details: { reason: "Request withdrawn" } },
    ]);
  });
});

describe("operator status changes go through the operator state machine", () => {
  it("refuses disabling a disabled operator and enabling an active one, auditing nothing", async () => {
    const op = await operatorToken(h, "admin");
    const target = await operatorToken(h, "support");
    const me = dataOf<{ username: string }>(await admin(h, "me", undefined, target, "query"));
    expectOk(await admin(h, "operators.setStatus", { username: me.username, status: "disabled" }, op));
    expectTrpcRefusal(
      await admin(h, "operators.setStatus", { username: me.username, status: "disabled" }, op),
      "STATUS_UNCHANGED",
    );
    expectOk(await admin(h, "operators.setStatus", { username: me.username, status: "active" }, op));
    expectTrpcRefusal(
      await admin(h, "operators.setStatus", { username: me.username, status: "active" }, op),
      "STATUS_UNCHANGED",
    );
    const rows = await query<{ action: string }>(
      h,
      "select action from audit_log where subject = $1 and action in ('operator.disable', 'operator.enable') order by id",
      [me.username],
    );
    expect(rows.map((r) => r.action)).toEqual(["operator.disable", "operator.enable"]);
  });
});
