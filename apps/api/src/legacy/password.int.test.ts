import { createSession } from "@northstar/domain/identity";
import { translate } from "@northstar/shared/i18n";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ageCodes,
  expectRefusal,
  insertUser,
  loginByEmail,
  newEmail,
  passwordHashOf,
  registerByPhone,
  waitForSmsCode,
} from "../test/fixtures.ts";
import { createHarness, type Harness } from "../test/harness.ts";

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h?.close();
});

const NEW = "newpass456";

/** Asks for a second code to an address that got its registration code a moment ago. */
async function secondCode(email: string, fields: Record<string, string>): Promise<string> {
  await ageCodes(h, email);
  const sent = await h.call("getCode", { type: "email", ...fields });
  expect(sent.code, sent.message).toBe(0);
  return h.mailbox.waitForCode(email, { after: 1 });
}

describe("web/updatePassword mode=reset (forgot password)", () => {
  it("sets a new password by a code and ends every session with 1000", async () => {
    const u = await h.registerByEmail();
    const other = await loginByEmail(h, u.email, u.password);
    const code = await secondCode(u.email, { account: u.email, purpose: "reset" });
    const fields = {
      mode: "reset",
      type: "email",
      account: u.email,
      code,
      password: NEW,
      confirm_password: NEW,
    };

    const res = await h.call("updatePassword", { ...fields, lang: "zh" });
    expect(res).toMatchObject({ code: 0, message: translate("zh", "api.passwordUpdated") });
    for (const token of [u.token, other]) {
      expectRefusal(await h.call("info", { token }), "SESSION_ENDED", { responseCode: 1000 });
    }
    expectRefusal(
      await h.call("userLogin", { account: u.email, password: u.password }),
      "WRONG_CREDENTIALS",
      {
        params: { remaining: 4 },
      },
    );
    await loginByEmail(h, u.email, NEW);
    // The code was single-use.
    expectRefusal(
      await h.call("updatePassword", { ...fields, password: "again789", confirm_password: "again789" }),
      "CODE_WRONG",
    );
  });

  it("resets a phone account by a code sent by SMS", async () => {
    const u = await registerByPhone(h, "13700001111");
    await ageCodes(h, "+8613700001111");
    const account = { type: "phone", area_code: "86", account: "13700001111" };
    expect((await h.call("getCode", { ...account, purpose: "reset" })).code).toBe(0);
    const code = await waitForSmsCode(h, "+8613700001111", 1);
    const res = await h.call("updatePassword", {
      mode: "reset",
      ...account,
      code,
      password: NEW,
      confirm_password: NEW,
    });
    expect(res.code, res.message).toBe(0);
    expect((await h.call("userLogin", { ...account, password: NEW })).code).toBe(0);
    expectRefusal(await h.call("info", { token: u.token }), "SESSION_ENDED", { responseCode: 1000 });
  });

  it("refuses an unknown account, a wrong code, differing or out-of-policy passwords", async () => {
    // A reset for an unknown account answers as for a known one (enumeration.int.test.ts).
    expect(
      (await h.call("getCode", { type: "email", account: newEmail("ghost"), purpose: "reset" })).code,
    ).toBe(0);
    const u = await h.registerByEmail();
    const code = await secondCode(u.email, { account: u.email, purpose: "reset" });
    const base = {
      mode: "reset",
      type: "email",
      account: u.email,
      code,
      password: NEW,
      confirm_password: NEW,
    };
    expectRefusal(
      await h.call("updatePassword", { ...base, confirm_password: "other456" }),
      "PASSWORDS_DIFFER",
    );
    expectRefusal(
      await h.call("updatePassword", { ...base, password: "abc", confirm_password: "abc", lang: "ty" }),
      "PASSWORD_LENGTH",
      {
        lang: "ty",
        params: { min: 6, max: 24 },
      },
    );
    expectRefusal(
      await h.call("updatePassword", { ...base, code: code === "111111" ? "222222" : "111111" }),
      "CODE_WRONG",
    );
    expectRefusal(await h.call("updatePassword", { ...base, account: newEmail("ghost") }), "CODE_WRONG");
    // None of these spent the code or changed the password.
    await loginByEmail(h, u.email, u.password);
    expect((await h.call("updatePassword", base)).code).toBe(0);
  });
});

describe("web/updatePassword mode=change (old and new password)", () => {
  it("refuses a wrong old password, then changes it, keeping this session and ending the others", async () => {
    const u = await h.registerByEmail();
    const other = await loginByEmail(h, u.email, u.password);
    const fields = { mode: "change", token: u.token, password: NEW, confirm_password: NEW };

    const wrong = await h.call("updatePassword", { ...fields, old_password: "not-it-123", lang: "hy" });
    expectRefusal(wrong, "OLD_PASSWORD_WRONG", { lang: "hy" });
    expect(wrong.data).toMatchObject({ field: "old_password" });
    expect((await h.call("info", { token: other })).code).toBe(0);

    expect((await h.call("updatePassword", { ...fields, old_password: u.password })).code).toBe(0);
    expect((await h.call("info", { token: u.token })).code).toBe(0);
    expectRefusal(await h.call("info", { token: other, lang: "zh" }), "SESSION_ENDED", {
      lang: "zh",
      responseCode: 1000,
    });
    await loginByEmail(h, u.email, NEW);
  });

  it("needs a session", async () => {
    const res = await h.call("updatePassword", {
      mode: "change",
      old_password: "secret123",
      password: NEW,
      confirm_password: NEW,
    });
    expectRefusal(res, "LOGIN_REQUIRED", { responseCode: 2000 });
  });

  it("refuses a user with neither email nor phone bound", async () => {
    const donor = await h.registerByEmail();
    const userId = await insertUser(h, { email: null, passwordHash: await passwordHashOf(h, donor.email) });
    const token = await createSession(h.db, userId);
    expect((await h.call("info", { token })).code).toBe(0);
    const change = {
      mode: "change",
      token,
      old_password: "secret123",
      password: NEW,
      confirm_password: NEW,
      lang: "jp",
    };
    expectRefusal(await h.call("updatePassword", change), "BIND_REQUIRED", { lang: "jp" });
    expectRefusal(await h.call("getCode", { token, type: "email", purpose: "changepwd" }), "BIND_REQUIRED");
    expectRefusal(await h.call("getCode", { token, type: "phone", purpose: "changepwd" }), "BIND_REQUIRED");
  });
});

describe("web/updatePassword mode=changepwd (code to the bound email)", () => {
  it("sends the code to the user's own email and changes the password with it", async () => {
    const u = await h.registerByEmail();
    const other = await loginByEmail(h, u.email, u.password);
    // Whatever account a client names, a changepwd code goes only to the user's own address.
    const code = await secondCode(u.email, {
      token: u.token,
      purpose: "changepwd",
      account: "attacker@example.com",
    });
    expect(h.mailbox.mails.some((m) => m.to.includes("attacker@example.com"))).toBe(false);

    const fields = { mode: "changepwd", type: "email", code, password: NEW, confirm_password: NEW };
    expectRefusal(await h.call("updatePassword", fields), "LOGIN_REQUIRED", { responseCode: 2000 });
    expect((await h.call("updatePassword", { ...fields, token: u.token })).code).toBe(0);
    expect((await h.call("info", { token: u.token })).code).toBe(0);
    expectRefusal(await h.call("info", { token: other }), "SESSION_ENDED", { responseCode: 1000 });
    await loginByEmail(h, u.email, NEW);
    expectRefusal(await h.call("updatePassword", { ...fields, token: u.token }), "CODE_WRONG");
  });

  it("needs a session to send the code, and a bound phone to send it by SMS", async () => {
    const u = await h.registerByEmail();
    await ageCodes(h, u.email);
    expectRefusal(await h.call("getCode", { type: "email", purpose: "changepwd" }), "LOGIN_REQUIRED", {
      responseCode: 2000,
    });
    expectRefusal(
      await h.call("getCode", { token: u.token, type: "phone", purpose: "changepwd" }),
      "BIND_REQUIRED",
    );
  });

  it("does not accept a code issued for another purpose", async () => {
    const u = await h.registerByEmail();
    const code = await secondCode(u.email, { account: u.email, purpose: "reset" });
    const res = await h.call("updatePassword", {
      mode: "changepwd",
      type: "email",
      token: u.token,
      code,
      password: NEW,
      confirm_password: NEW,
    });
    expectRefusal(res, "CODE_WRONG");
  });
});

describe("web/hasTpassword", () => {
  it("answers 0 before and 1 after the trade password is set", async () => {
    const u = await h.registerByEmail();
    expect(await h.call("hasTpassword", { token: u.token }, "GET")).toMatchObject({
      code: 0,
      data: { has: 0 },
    });
    const set = await h.trpc(
      "identity.setTradePassword",
      { login_password: u.password, trade_password: "135790", confirm_password: "135790" },
      u.token,
    );
    expect(set.status).toBe(200);
    expect(await h.call("hasTpassword", { token: u.token })).toMatchObject({ code: 0, data: { has: 1 } });
    expect((await h.call("info", { token: u.token })).data).toMatchObject({ transaction_password: 1 });
    expectRefusal(await h.call("hasTpassword", {}), "LOGIN_REQUIRED", { responseCode: 2000 });
  });
});
