import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectOk, expectTrpcRefusal, fieldInvalidText, query } from "../test/fixtures.ts";
import { createHarness, type Harness } from "../test/harness.ts";
import { grant, userIdOf } from "../test/money.ts";
import type { ProcedureMeta } from "./init.ts";
import { appRouter } from "./router.ts";

/**
 * Every user mutation of the tRPC API is declared either a money action (`moneyProcedure`: refused
 * without an Idempotency-Key) or not, with the reason below. A new mutation fails this test until
 * someone decides which it is, so a money action cannot slip in without its key.
 */
const MONEY = [
  "withdrawal.create",
  "transfer.create",
  "conversion.create",
  "spot.place",
  "earn.buy",
  "earn.redeem",
  "launchpad.subscribe",
  "options.buy",
  "loans.create",
  "loans.repay",
  "loans.repayByWire",
  "c2c.create",
  "contracts.open",
  "contracts.close",
  "contracts.closeAll",
  "contracts.adjustMargin",
  "rewards.claim",
];
const NOT_MONEY: Record<string, string> = {
  "identity.logout": "ends the session",
  "apiKeys.create": "a credential; a key can never withdraw",
  "apiKeys.update": "a key's label, permission or addresses",
  "apiKeys.setEnabled": "a key's state",
  "apiKeys.delete": "a key's state",
  "identity.setTradePassword": "a secret, no balance",
  "identity.changeTradePassword": "a secret, no balance",
  "identity.bindEmail": "contact details",
  "identity.bindPhone": "contact details",
  "identity.setSecurityQuestions": "a secret, no balance",
  "identity.verifySecurityAnswer": "a check, changes nothing",
  "identity.updateNickname": "profile",
  "identity.updateLanguage": "profile",
  "walletLogin.nonce": "sign-in challenge",
  "walletLogin.signIn": "sign-in",
  "walletLogin.linkNonce": "sign-in challenge",
  "walletLogin.link": "a sign-in method",
  "walletLogin.unlink": "a sign-in method",
  "deposit.create": "a claim an operator reviews; no balance moves until the operator confirms it",
  "c2c.cancel":
    "ends the buyer's unpaid order, compare-and-set on its row: a repeat is refused; the buyer's balance never moved",
  "conversion.createQuote":
    "a firm quote: fixes the amounts conversion.create (money) will move, moves nothing",
  "withdrawal.cancel":
    "returns the hold to its owner, compare-and-set on the withdrawal: a repeat is refused",
  "withdrawalAddress.create": "address book",
  "withdrawalAddress.delete": "address book",
  "bankCard.create": "card details",
  "bankCard.delete": "card details",
  "googleAuth.start": "a secret, no balance",
  "googleAuth.confirm": "a secret, no balance",
  "market.setFavourite": "a list of symbols",
  "spot.cancel": "the matcher releases the hold when it applies the cancel; a repeat answers ORDER_NOT_OPEN",
  "kyc.applyPrimary": "verification",
  "kyc.applyAdvanced": "verification",
  "kyc.applyAddress": "verification",
  "kyc.applyCredit": "verification",
  "kyc.submitQuestionnaire": "verification",
  "loans.reapply": "back to review; nothing is paid until an operator approves",
  "loans.withdraw": "withdraws an application under review; nothing was paid",
  "c2c.submitProof": "a proof an operator reviews; no balance moves",
  "c2c.savePaymentSettings": "payment details",
  "contracts.cancel": "returns a pending order's margin, compare-and-set on the order: a repeat is refused",
  "contracts.updateTpSl": "trigger prices; no balance moves",
  "messages.read": "read state",
  "messages.readAll": "read state",
  "support.send": "a chat line",
  "support.read": "read state",
  "admin.login": "operator sign-in",
};

type ProcDef = { _def: { type: "query" | "mutation" | "subscription"; meta?: ProcedureMeta } };
const mutations = Object.entries(appRouter._def.procedures as unknown as Record<string, ProcDef>)
  .filter(([, p]) => p._def.type === "mutation")
  .map(([path, p]) => ({ path, meta: p._def.meta ?? {} }));
/** Operator mutations are role-gated and audited (operators.int.test.ts covers every one). */
const userMutations = mutations.filter((m) => m.meta.permission === undefined);
const moneyMutations = userMutations.filter((m) => m.meta.money === true).map((m) => m.path);

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h?.close();
});

describe("the money mutations of the tRPC API", () => {
  it("declares every user mutation money or not money, never both, and lists no procedure that does not exist", () => {
    expect(userMutations.length).toBeGreaterThan(50);
    const undeclared = userMutations
      .filter((m) => m.meta.money !== true && !(m.path in NOT_MONEY))
      .map((m) => m.path);
    expect(undeclared).toEqual([]);
    const both = moneyMutations.filter((path) => path in NOT_MONEY);
    expect(both).toEqual([]);
    const paths = new Set(userMutations.map((m) => m.path));
    expect(Object.keys(NOT_MONEY).filter((path) => !paths.has(path))).toEqual([]);
  });

  it("declares money exactly the actions that open, spend, move or credit a balance", () => {
    expect([...moneyMutations].sort()).toEqual([...MONEY].sort());
  });

  it("refuses every money mutation sent without an Idempotency-Key, in the caller's language, applying nothing", async () => {
    const u = await h.registerByEmail();
    const userId = await userIdOf(h, u.token);
    await grant(h, userId, "1000");
    const ledgerBefore = await query<{ n: number }>(h, "select count(*)::int as n from journal_entries");
    for (const path of MONEY) {
      for (const lang of ["en", "jp"] as const) {
        const response = await h.app.inject({
          method: "POST",
          url: `/trpc/${path}`,
          payload: "{}",
          headers: { authorization: `Bearer ${u.token}`, "content-type": "application/json", lang },
        });
        const res = { status: response.statusCode, body: response.json() };
        expectTrpcRefusal(res, "IDEMPOTENCY_KEY_REQUIRED", { lang });
        expect(res.body.error?.data.field, path).toBe("idempotency_key");
      }
    }
    expect(await query<{ n: number }>(h, "select count(*)::int as n from journal_entries")).toEqual(
      ledgerBefore,
    );
    expect(
      await query<{ n: number }>(h, "select count(*)::int as n from idempotent_requests where user_id = $1", [
        userId,
      ]),
    ).toEqual([{ n: 0 }]);
  });

  it("refuses a malformed key naming the field, and runs a money mutation sent with a key", async () => {
    const u = await h.registerByEmail();
    const userId = await userIdOf(h, u.token);
    await grant(h, userId, "100");
    const transfer = { currency: "USDT", from: "exchange", to: "contract", amount: "10" };
    const bad = await h.trpc("transfer.create", transfer, u.token, "mutation", {
      idempotencyKey: "no spaces!",
    });
    expectTrpcRefusal(bad, "FIELD_INVALID", { message: fieldInvalidText("idempotencyKey") });
    expectOk(
      await h.trpc("transfer.create", transfer, u.token, "mutation", { idempotencyKey: "transfer-0001" }),
    );
  });

  it("still runs a mutation that is not money without a key", async () => {
    const u = await h.registerByEmail();
    expectOk(
      await h.trpc("identity.updateNickname", { nickname: "Keyless" }, u.token, "mutation", {
        idempotencyKey: null,
      }),
    );
  });
});
