import { setPolicy } from "@northstar/domain/policy";
import { POLICY, POLICY_KEYS, policyDefaults } from "@northstar/shared/policy";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { query } from "../test/fixtures.ts";
import { createHarness, type Harness } from "../test/harness.ts";

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
      code: "FIELD_INVALID",
    });
    expect(await getPublic()).toMatchObject({ "identity.code.resendSeconds": 60 });
  });
});
