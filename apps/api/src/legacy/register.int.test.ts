import { setPolicy } from "@northstar/domain/policy";
import { translate } from "@northstar/shared/i18n";
import type { Language } from "@northstar/shared/languages";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  countUsers,
  expectRefusal,
  newEmail,
  query,
  registerForm,
  sendRegisterCode,
  tokenOf,
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

const emailCode = (email: string, lang: Language = "en") => sendRegisterCode(h, email, lang);
const form = registerForm;

describe("web/getCode and web/userRegister: success", () => {
  it("registers by email, answering the same token in token and wap_token, in the request's language", async () => {
    const email = newEmail("ok");
    const sent = await h.call("getCode", { type: "email", account: email, purpose: "register", lang: "zh" });
    expect(sent).toMatchObject({
      code: 0,
      message: translate("zh", "api.codeSent"),
      data: { resend_seconds: 60 },
    });
    const code = await h.mailbox.waitForCode(email);

    const res = await h.call("userRegister", { ...form(email, code), lang: "zh" });
    expect(res.code).toBe(0);
    expect(res.event).toBe("register");
    expect(res.message).toBe(translate("zh", "api.registerOk"));
    expect(res.message).not.toBe(translate("en", "api.registerOk"));
    const data = res.data as { token: string; wap_token: string };
    expect(data.token).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    expect(data.wap_token).toBe(data.token);

    const info = await h.call("info", { token: data.token }, "GET");
    expect(info.code).toBe(0);
    expect(info.data).toMatchObject({
      email,
      phone: "",
      nationality: "GB",
      account_kind: "real",
      language: "en",
    });
    const [user] = await query<{ language: string }>(h, "select language from users where email = $1", [
      email,
    ]);
    expect(user?.language).toBe("zh");
  });

  it("registers by phone with a code read from the SMS log", async () => {
    const sent = await h.call("getCode", {
      type: "phone",
      area_code: "86",
      account: "13812345678",
      purpose: "register",
    });
    expect(sent.code, sent.message).toBe(0);
    const code = await waitForSmsCode(h, "+8613812345678");
    const res = await h.call("userRegister", {
      ...form("13812345678", code, { type: "phone", area_code: "+86", nationality: "CN" }),
    });
    expect(res.code, res.message).toBe(0);
    expect(res.data).toMatchObject({ wap_token: tokenOf(res) });
    const info = await h.call("info", { token: tokenOf(res) });
    expect(info.data).toMatchObject({ phone: "13812345678", area_code: "86", email: "", nationality: "CN" });
  });
});

describe("web/userRegister: refusals create no user", () => {
  let before: number;
  beforeAll(async () => {
    before = await countUsers(h);
  });
  afterAll(async () => {
    expect(await countUsers(h)).toBe(before);
  });

  it("refuses an empty account or password", async () => {
    const email = newEmail("empty");
    const code = await emailCode(email);
    expectRefusal(await h.call("userRegister", form("", code)), "ACCOUNT_OR_PASSWORD_EMPTY");
    const noPassword = form(email, code, { password: "", lang: "ty" });
    expectRefusal(await h.call("userRegister", noPassword), "ACCOUNT_OR_PASSWORD_EMPTY", { lang: "ty" });
  });

  it("refuses passwords that differ", async () => {
    const email = newEmail("differ");
    const code = await emailCode(email);
    const res = await h.call(
      "userRegister",
      form(email, code, { confirm_password: "secret124", lang: "jp" }),
    );
    expectRefusal(res, "PASSWORDS_DIFFER", { lang: "jp" });
    expect(res.data).toMatchObject({ field: "confirm_password" });
  });

  it("refuses a badly formed email, at getCode and at register", async () => {
    const sent = await h.call("getCode", {
      type: "email",
      account: "not-an-email",
      purpose: "register",
      lang: "hy",
    });
    expectRefusal(sent, "EMAIL_FORMAT", { lang: "hy" });
    expectRefusal(await h.call("userRegister", form("a@b", "123456")), "EMAIL_FORMAT");
  });

  it("refuses a badly formed phone number, at getCode and at register", async () => {
    const bad = { type: "phone", area_code: "86", account: "12345" };
    expectRefusal(await h.call("getCode", { ...bad, purpose: "register", lang: "yn" }), "PHONE_FORMAT", {
      lang: "yn",
    });
    expectRefusal(await h.call("userRegister", form("12345", "123456", bad)), "PHONE_FORMAT");
    expectRefusal(
      await h.call("getCode", { ...bad, account: "1381234x678", purpose: "register" }),
      "PHONE_FORMAT",
    );
  });

  it("refuses when the agreement is not ticked, whether sent as 0 or left out", async () => {
    const email = newEmail("agree");
    const code = await emailCode(email);
    expectRefusal(await h.call("userRegister", form(email, code, { agree: "0" })), "AGREEMENT_REQUIRED");
    const { agree: _, ...withoutAgree } = form(email, code, { lang: "zh" });
    expectRefusal(await h.call("userRegister", withoutAgree), "AGREEMENT_REQUIRED", { lang: "zh" });
  });

  it("refuses an account that exists, at getCode and at register", async () => {
    const { email } = await h.registerByEmail();
    before += 1;
    const res = await h.call("getCode", { type: "email", account: email.toUpperCase(), purpose: "register" });
    expectRefusal(res, "ACCOUNT_EXISTS");
    // The account check comes before the code check, so no code is spent finding this out.
    expectRefusal(await h.call("userRegister", form(email, "123456", { lang: "yn" })), "ACCOUNT_EXISTS", {
      lang: "yn",
    });
  });

  it("refuses a password shorter or longer than the policy allows, keeping the code usable", async () => {
    const email = newEmail("len");
    const code = await emailCode(email);
    for (const password of ["12345", "x".repeat(25)]) {
      const res = await h.call(
        "userRegister",
        form(email, code, { password, confirm_password: password, lang: "ty" }),
      );
      expectRefusal(res, "PASSWORD_LENGTH", { lang: "ty", params: { min: 6, max: 24 } });
    }
    const edge = "y".repeat(24);
    expect(
      (await h.call("userRegister", form(email, code, { password: edge, confirm_password: edge }))).code,
    ).toBe(0);
    before += 1;
  });

  it("refuses an unknown invitation code and links a known one to its inviter", async () => {
    const inviter = await h.registerByEmail();
    before += 1;
    const info = await h.call("info", { token: inviter.token });
    const inviteCode = (info.data as { invitation_code: string }).invitation_code;
    expect(inviteCode).toMatch(/^[A-Z2-9]{6}$/);

    const email = newEmail("invited");
    const code = await emailCode(email);
    const res = await h.call("userRegister", form(email, code, { invite_code: "NOSUCH" }));
    expectRefusal(res, "INVITE_CODE_INVALID");
    expect(res.data).toMatchObject({ field: "invite_code" });

    expect(
      (await h.call("userRegister", form(email, code, { invite_code: inviteCode.toLowerCase() }))).code,
    ).toBe(0);
    before += 1;
    const rows = await query<{ invited_by: number; inviter_id: number }>(
      h,
      "select u.invited_by, i.id as inviter_id from users u, users i where u.email = $1 and i.email = $2",
      [email, inviter.email],
    );
    expect(rows[0]?.invited_by).toBe(rows[0]?.inviter_id);
  });

  it("requires an invitation code when policy says so", async () => {
    await setPolicy(h.db, "identity.inviteCode.required", true, "test");
    try {
      const email = newEmail("required");
      const code = await emailCode(email);
      expectRefusal(await h.call("userRegister", form(email, code, { lang: "jp" })), "INVITE_CODE_REQUIRED", {
        lang: "jp",
      });
      expectRefusal(
        await h.call("userRegister", form(email, code, { invite_code: " " })),
        "INVITE_CODE_REQUIRED",
      );
    } finally {
      await setPolicy(h.db, "identity.inviteCode.required", false, "test");
    }
  });
});
