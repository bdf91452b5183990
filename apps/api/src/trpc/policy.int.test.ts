import { setPolicy } from "@northstar/domain/policy";
import type { ErrorCode } from "@northstar/shared/errors";
import { POLICY, POLICY_KEYS, type PolicyKey, policyDefaults } from "@northstar/shared/policy";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorText, expectOk, expectTrpcRefusal, query } from "../test/fixtures.ts";
import { createHarness, type Harness } from "../test/harness.ts";
import { admin, operatorToken } from "../test/money.ts";

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h?.close();
});

const getPublic = async () => {
  const res = await h.trpc("policy.getPublic", undefined, undefined, "query");
  expect(res.status).toBe(200);
  return res.body.result?.data as Record<string, unknown>;
};

describe("policy.getPublic", () => {
  it("answers the public defaults, and only the public keys", async () => {
    const defaults = policyDefaults() as Record<string, unknown>;
    const publicKeys = POLICY_KEYS.filter((k) => POLICY[k].public);
    expect(Object.fromEntries(publicKeys.map((k) => [k, defaults[k]]))).toEqual(await getPublic());
    expect(await getPublic()).toMatchObject({
      "identity.loginPassword.minLength": 6,
      "identity.loginPassword.maxLength": 24,
      "identity.inviteCode.required": false,
      "identity.code.resendSeconds": 60,
      "identity.login.lockMinutes": 15,
      "uploads.maxBytes": 8 * 1024 * 1024,
    });
    expect(await getPublic()).not.toHaveProperty("identity.code.maxAttempts");
  });

  it("reflects an operator override, and the server enforces the same value", async () => {
    await setPolicy(h.db, "identity.loginPassword.minLength", 8, "test");
    await setPolicy(h.db, "identity.inviteCode.required", true, "test");
    expect(await getPublic()).toMatchObject({
      "identity.loginPassword.minLength": 8,
      "identity.inviteCode.required": true,
    });
    const [audit] = await query<{ action: string; subject: string }>(
      h,
      "select action, subject from audit_log where subject = 'identity.loginPassword.minLength'",
    );
    expect(audit).toEqual({ action: "policy.set", subject: "identity.loginPassword.minLength" });

    await setPolicy(h.db, "identity.inviteCode.required", false, "test");
    const u = await h.registerByEmail({ password: "longer123" });
    const res = await h.call("updatePassword", {
      mode: "change",
      token: u.token,
      old_password: "longer123",
      password: "short7x",
      confirm_password: "short7x",
    });
    expect(res).toMatchObject({ code: 1, data: { error: "PASSWORD_LENGTH" } });
    expect(res.message).toContain("8");
  });

  it("refuses an override outside the value's schema", async () => {
    await expect(setPolicy(h.db, "identity.code.resendSeconds", 5, "test")).rejects.toMatchObject({
      code: "POLICY_VALUE_INVALID",
      params: { key: "identity.code.resendSeconds" },
    });
    expect(await getPublic()).toMatchObject({ "identity.code.resendSeconds": 60 });
  });
});

describe("admin.setPolicy: every value has bounds, checked with the keys it depends on", () => {
  let chief: string;
  beforeAll(async () => {
    chief = await operatorToken(h, "admin");
  });
  const audits = async (key: string) =>
    (await query<{ n: number }>(h, "select count(*)::int as n from audit_log where subject = $1", [key]))[0]
      ?.n;
  const stored = async (key: string) =>
    (await query(h, "select value::text from policy_overrides where key = $1", [key]))[0] ?? null;

  /** Each bad value is refused naming its key, stores nothing and audits nothing. */
  const refused: [PolicyKey, unknown, ErrorCode][] = [
    ["funding.withdraw.feeRate", "1", "POLICY_VALUE_INVALID"],
    ["funding.withdraw.feeRate", "1.5", "POLICY_VALUE_INVALID"],
    ["funding.convert.spread", "1", "POLICY_VALUE_INVALID"],
    ["funding.convert.quoteSeconds", 600, "POLICY_VALUE_INVALID"],
    ["funding.withdraw.turnoverRatio", "1.01", "POLICY_VALUE_INVALID"],
    ["spot.fee.maker", "1", "POLICY_VALUE_INVALID"],
    ["spot.fee.taker", "0.999999999999999999999", "POLICY_VALUE_INVALID"],
    ["spot.marketProtection", "1", "POLICY_VALUE_INVALID"],
    ["funding.withdraw.minUsdt", "0", "POLICY_VALUE_INVALID"],
    ["funding.withdraw.maxUsdt", "0", "POLICY_VALUE_INVALID"],
    ["funding.deposit.minimums", { USDT: "0" }, "POLICY_VALUE_INVALID"],
    ["funding.deposit.minimums", { usdt: "1" }, "POLICY_VALUE_INVALID"],
    ["demo.amounts", ["10000", "0"], "POLICY_VALUE_INVALID"],
    ["funding.withdraw.window", { start: 12, end: 12, timeZone: "Asia/Hong_Kong" }, "POLICY_VALUE_INVALID"],
    ["funding.withdraw.window", { start: 20, end: 8, timeZone: "Asia/Hong_Kong" }, "POLICY_VALUE_INVALID"],
    ["funding.withdraw.window", { start: 0, end: 25, timeZone: "Asia/Hong_Kong" }, "POLICY_VALUE_INVALID"],
    ["funding.withdraw.window", { start: 0, end: 24, timeZone: "Mars/Olympus" }, "POLICY_VALUE_INVALID"],
    ["funding.withdraw.chains", { USDT: ["ERC20", "NOSUCH"] }, "POLICY_VALUE_INVALID"],
    ["funding.withdraw.chains", { NOPE: ["ERC20"] }, "POLICY_VALUE_INVALID"],
    [
      "spot.marketMaker",
      { enabled: true, levels: 10, spread: "1", step: "0.0005", levelNotionalUsdt: "20000", refreshMs: 1000 },
      "POLICY_VALUE_INVALID",
    ],
    [
      "spot.marketMaker",
      {
        enabled: true,
        levels: 10,
        spread: "0.0005",
        step: "0.0005",
        levelNotionalUsdt: "0",
        refreshMs: 1000,
      },
      "POLICY_VALUE_INVALID",
    ],
    // Cross-key rules, whichever of the two keys is set.
    ["funding.withdraw.minUsdt", "200000.01", "POLICY_MIN_ABOVE_MAX"],
    ["funding.withdraw.maxUsdt", "99.99", "POLICY_MIN_ABOVE_MAX"],
    ["identity.loginPassword.minLength", 25, "POLICY_MIN_ABOVE_MAX"],
    ["identity.loginPassword.maxLength", 5, "POLICY_VALUE_INVALID"],
  ];
  it.each(refused)("refuses %s = %j with %s", async (key, value, code) => {
    const [before, storedBefore] = [await audits(key), await stored(key)];
    const res = await admin(h, "setPolicy", { key, value }, chief);
    expectTrpcRefusal(res, code, { params: code === "POLICY_MIN_ABOVE_MAX" ? minMaxParams(key) : { key } });
    expect(res.body.error?.message).toContain(key);
    expect(await stored(key)).toEqual(storedBefore);
    expect(await audits(key)).toBe(before);
    await expect(setPolicy(h.db, key, value as never, "test")).rejects.toMatchObject({ code });
  });

  it("checks the pair after the change: raising both limits works in the right order only", async () => {
    const set = (key: string, value: unknown) => admin(h, "setPolicy", { key, value }, chief);
    expectOk(await set("identity.loginPassword.minLength", 6));
    expectOk(await set("identity.loginPassword.maxLength", 8));
    expectTrpcRefusal(await set("identity.loginPassword.minLength", 9), "POLICY_MIN_ABOVE_MAX", {
      params: minMaxParams("identity.loginPassword.minLength"),
    });
    expectOk(await set("identity.loginPassword.minLength", 8));
    expectTrpcRefusal(await set("identity.loginPassword.maxLength", 7), "POLICY_MIN_ABOVE_MAX", {
      params: minMaxParams("identity.loginPassword.maxLength"),
    });
    expect(await getPublic()).toMatchObject({
      "identity.loginPassword.minLength": 8,
      "identity.loginPassword.maxLength": 8,
    });
    expectOk(await set("identity.loginPassword.minLength", 6));
    expectOk(await set("identity.loginPassword.maxLength", 24));
    // Equal limits are a valid (if narrow) rule, and decimals compare as decimals, not as text.
    expectOk(await set("funding.withdraw.minUsdt", "100"));
    expectOk(await set("funding.withdraw.maxUsdt", "100.0"));
    expectTrpcRefusal(
      await set("funding.withdraw.minUsdt", "100.000000000000000001"),
      "POLICY_MIN_ABOVE_MAX",
      {
        params: minMaxParams("funding.withdraw.minUsdt"),
      },
    );
    expectOk(await set("funding.withdraw.maxUsdt", "200000"));
    expect(await getPublic()).toMatchObject({
      "funding.withdraw.minUsdt": "100",
      "funding.withdraw.maxUsdt": "200000",
    });
  });

  it("answers the refusal in the operator's language", async () => {
    const res = await h.app.inject({
      method: "POST",
      url: "/trpc/admin.setPolicy",
      headers: { "x-operator-token": chief, "content-type": "application/json", lang: "zh" },
      payload: JSON.stringify({ key: "funding.withdraw.feeRate", value: "1" }),
    });
    expect(res.json().error.message).toBe(
      errorText("POLICY_VALUE_INVALID", "zh", { key: "funding.withdraw.feeRate" }),
    );
  });
});

function minMaxParams(key: string) {
  const pairs: Record<string, [string, string]> = {
    "funding.withdraw.minUsdt": ["funding.withdraw.minUsdt", "funding.withdraw.maxUsdt"],
    "funding.withdraw.maxUsdt": ["funding.withdraw.minUsdt", "funding.withdraw.maxUsdt"],
    "identity.loginPassword.minLength": [
      "identity.loginPassword.minLength",
      "identity.loginPassword.maxLength",
    ],
    "identity.loginPassword.maxLength": [
      "identity.loginPassword.minLength",
      "identity.loginPassword.maxLength",
    ],
  };
  const [min, max] = pairs[key] ?? [key, key];
  return { min, max };
}
