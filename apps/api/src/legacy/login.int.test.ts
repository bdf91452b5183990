import { ZSessionInfoSchema } from "@northstar/shared/contracts/identity";
import { translate } from "@northstar/shared/i18n";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  errorText,
  expectRefusal,
  fieldInvalidText,
  insertUser,
  loginByEmail,
  newEmail,
  passwordHashOf,
  query,
  registerByPhone,
  tokenHash,
} from "../test/fixtures.ts";
import { createHarness, type Harness } from "../test/harness.ts";
import type { Envelope } from "./define.ts";

let h: Harness;
let user: { email: string; password: string; token: string };
beforeAll(async () => {
  h = await createHarness();
  user = await h.registerByEmail();
});
afterAll(async () => {
  await h?.close();
});

/** The login password's attempt count of the user whose email is $1. */
const LOGIN_COUNT =
  "kind = 'login_password' and subject = (select 'user:' || id from users where email = $1)";

const login = (fields: Record<string, string>, method: "GET" | "POST" = "POST") =>
  h.call("userLogin", { type: "email", ...fields }, method);

describe("web/userLogin", () => {
  it("logs in by POST and by GET, with the login event and a message in the request's language", async () => {
    const post = await login({ account: user.email, password: user.password, lang: "ty" });
    expect(post).toMatchObject({ code: 0, event: "login", message: translate("ty", "api.loginOk") });
    const get = await login({ account: user.email.toUpperCase(), password: user.password }, "GET");
    expect(get).toMatchObject({ code: 0, event: "login", message: translate("en", "api.loginOk") });
    const tokens = [post, get].map((r) => (r.data as { token: string }).token);
    expect(new Set([...tokens, user.token]).size).toBe(3);
    for (const token of tokens) {
      expect((await h.call("info", { token })).code).toBe(0);
    }
  });

  it("logs in by phone", async () => {
    const phoneUser = await registerByPhone(h);
    const res = await h.call("userLogin", {
      type: "phone",
      area_code: "86",
      account: "13812345678",
      password: phoneUser.password,
    });
    expect(res.code, res.message).toBe(0);
  });

  it("refuses empty fields and an unknown account", async () => {
    expectRefusal(await login({ account: "", password: "x" }), "ACCOUNT_OR_PASSWORD_EMPTY");
    expectRefusal(
      await login({ account: user.email, password: "", lang: "hy" }),
      "ACCOUNT_OR_PASSWORD_EMPTY",
      { lang: "hy" },
    );
    expectRefusal(await h.call("userLogin", {}), "ACCOUNT_OR_PASSWORD_EMPTY");
    // An unknown account is refused as a wrong password (enumeration.int.test.ts compares the two).
    const unknown = await login({ account: newEmail("nobody"), password: "secret123", lang: "zh" });
    expectRefusal(unknown, "WRONG_CREDENTIALS", { lang: "zh", params: { remaining: 4 } });
    expect(unknown.event).toBe("login");
  });

  it("counts wrong passwords, locks after 5, refuses the right one while locked, and unlocks when the lock ends", async () => {
    const u = await h.registerByEmail();
    for (const remaining of [4, 3, 2, 1]) {
      expectRefusal(await login({ account: u.email, password: "wrong-pass" }), "WRONG_CREDENTIALS", {
        params: { remaining },
      });
    }
    expectRefusal(await login({ account: u.email, password: "wrong-pass", lang: "xby" }), "ACCOUNT_LOCKED", {
      lang: "xby",
      params: { minutes: 15 },
    });
    expectRefusal(await login({ account: u.email, password: u.password }), "ACCOUNT_LOCKED", {
      params: { minutes: 15 },
    });
    // A wrong password while locked neither extends the lock nor counts.
    expectRefusal(await login({ account: u.email, password: "wrong-pass" }), "ACCOUNT_LOCKED", {
      params: { minutes: 15 },
    });

    await query(
      h,
      `update secret_attempts set locked_until = now() - interval '1 second' where ${LOGIN_COUNT}`,
      [u.email],
    );
    expect((await login({ account: u.email, password: u.password })).code).toBe(0);
    const [row] = await query<{ failures: number; locked_until: Date | null }>(
      h,
      `select failures, locked_until from secret_attempts where ${LOGIN_COUNT}`,
      [u.email],
    );
    expect(row).toEqual({ failures: 0, locked_until: null });
  });

  it("starts counting again after a successful login", async () => {
    const u = await h.registerByEmail();
    await login({ account: u.email, password: "wrong-pass" });
    await login({ account: u.email, password: "wrong-pass" });
    await loginByEmail(h, u.email, u.password);
    expectRefusal(await login({ account: u.email, password: "wrong-pass" }), "WRONG_CREDENTIALS", {
      params: { remaining: 4 },
    });
  });

  it("refuses demo and frozen users", async () => {
    // user's password is secret123, so these users' is too.
    const passwordHash = await passwordHashOf(h, user.email);
    const demo = newEmail("demo");
    await insertUser(h, { email: demo, kind: "demo", passwordHash });
    expectRefusal(await login({ account: demo, password: "secret123" }), "WRONG_CREDENTIALS", {
      params: { remaining: 4 },
    });
    const frozen = newEmail("frozen");
    await insertUser(h, { email: frozen, status: "frozen", passwordHash });
    expectRefusal(await login({ account: frozen, password: "secret123", lang: "jp" }), "ACCOUNT_FROZEN", {
      lang: "jp",
    });
    const [sessions] = await query<{ n: number }>(
      h,
      "select count(*)::int as n from sessions s join users u on u.id = s.user_id where u.email in ($1, $2)",
      [demo, frozen],
    );
    expect(sessions?.n).toBe(0);
  });
});

describe("web/info", () => {
  it("answers the session fields of SPEC section 3 for an email user", async () => {
    const u = await h.registerByEmail({ account: "averyveryverylongname@example.com" });
    const res = await h.call("info", { token: u.token, lang: "zh" }, "GET");
    expect(res.code).toBe(0);
    const info = ZSessionInfoSchema.strict().parse(res.data);
    expect(info).toMatchObject({
      token: u.token,
      language: "zh",
      email: "averyveryverylongname@example.com",
      phone: "",
      area_code: "",
      display_account: "averyveryver",
      phone_mask: "",
      transaction_password: 0,
      bank_name: "",
      bank_number: "",
      alipay_account: "",
      weixin_nickname: "",
      weixin_account: "",
      usdt: "0",
      account_kind: "real",
    });
    expect(info.name).toBe(info.nickname);
    expect(info.invite_link).toBe(`http://localhost:3000/register?code=${info.invitation_code}`);
  });

  it("shows a phone user's phone cut to 12 and masked as first 3, asterisks, last 6", async () => {
    const u = await registerByPhone(h, "13912345678");
    const res = await h.call("info", { token: u.token });
    expect(res.data).toMatchObject({
      phone: "13912345678",
      display_account: "13912345678",
      phone_mask: "139**345678",
    });
  });

  it("accepts the token as a field, a token header or a bearer header", async () => {
    for (const headers of [{ token: user.token }, { authorization: `Bearer ${user.token}` }]) {
      const res = await h.app.inject({ method: "GET", url: "/web/info", headers });
      expect(res.json()).toMatchObject({ code: 0, data: { email: user.email } });
    }
  });

  it("answers 2000 without a token, with an unknown token, or with an expired one", async () => {
    for (const fields of [{}, { token: "garbage" }, { token: `${user.token}x` }] as Record<
      string,
      string
    >[]) {
      const res = await h.call("info", { ...fields, lang: "ty" });
      expectRefusal(res, "LOGIN_REQUIRED", { lang: "ty", responseCode: 2000 });
    }
    const token = await loginByEmail(h, user.email, user.password);
    await query(h, "update sessions set expires_at = now() - interval '1 second' where token_hash = $1", [
      tokenHash(token),
    ]);
    expectRefusal(await h.call("info", { token }), "LOGIN_REQUIRED", { responseCode: 2000 });
  });

  it("answers 2000 after logout through identity.logout", async () => {
    const token = await loginByEmail(h, user.email, user.password);
    const out = await h.trpc("identity.logout", undefined, token);
    expect(out.status).toBe(200);
    expectRefusal(await h.call("info", { token }), "LOGIN_REQUIRED", { responseCode: 2000 });
    // Logging out one session leaves the others alone.
    expect((await h.call("info", { token: user.token })).code).toBe(0);
  });

  it("answers 1000 for a session the server ended or a frozen account", async () => {
    const killed = await loginByEmail(h, user.email, user.password);
    await query(h, "update sessions set revoked_at = now(), revoke_reason = 'killed' where token_hash = $1", [
      tokenHash(killed),
    ]);
    expectRefusal(await h.call("info", { token: killed, lang: "zh" }), "SESSION_ENDED", {
      lang: "zh",
      responseCode: 1000,
    });

    const u = await h.registerByEmail();
    await query(h, "update users set status = 'frozen' where email = $1", [u.email]);
    expectRefusal(await h.call("info", { token: u.token }), "SESSION_ENDED", { responseCode: 1000 });
    expectRefusal(await h.call("hasTpassword", { token: u.token }), "SESSION_ENDED", { responseCode: 1000 });
  });
  it("answers simultaneous requests each with its own session, sharing one lookup", async () => {
    const others = await Promise.all([h.registerByEmail(), h.registerByEmail(), h.registerByEmail()]);
    const loggedOut = await loginByEmail(h, user.email, user.password);
    await h.trpc("identity.logout", undefined, loggedOut);
    const calls = [...others, user].map((u) => ({ email: u.email, token: u.token }));
    const answers = await Promise.all([
      ...calls.map((c) => h.call("info", { token: c.token })),
      h.call("info", { token: loggedOut }),
      h.call("info", { token: "no-such-token-0123456789" }),
    ]);
    calls.forEach((c, i) => {
      expect(answers[i]).toMatchObject({ code: 0, data: { email: c.email, token: c.token } });
    });
    expectRefusal(answers[calls.length] as Envelope, "LOGIN_REQUIRED", { responseCode: 2000 });
    expectRefusal(answers[calls.length + 1] as Envelope, "LOGIN_REQUIRED", { responseCode: 2000 });
  });
});

describe("legacy envelope and rtoken", () => {
  it("refuses an rtoken outside 6 to 16 letters, digits, _ or -, naming the field", async () => {
    for (const rtoken of ["abcde", "a".repeat(17), "abc def", "abc$ef"]) {
      const res = await h.call("info", { token: user.token, rtoken, lang: "yn" });
      expectRefusal(res, "FIELD_INVALID", { message: fieldInvalidText("rtoken", "yn") });
      expect(res.data).toMatchObject({ field: "rtoken" });
    }
    for (const rtoken of ["abcdef", "a1B2_c-3d4E5f6G7", "Zx9-_0"]) {
      expect((await h.call("info", { token: user.token, rtoken })).code).toBe(0);
    }
    // The rtoken is checked before anything else, even on calls needing no session.
    expectRefusal(await h.call("getLogo", { rtoken: "123" }), "FIELD_INVALID", {
      message: fieldInvalidText("rtoken"),
    });
  });

  it("answers every call with code, message, data and time, by GET and by POST", async () => {
    const cases: [string, Record<string, string>][] = [
      ["userLogin", { type: "email", account: user.email, password: "wrong-pass-x" }],
      ["info", {}],
      ["info", { token: user.token }],
      ["hasTpassword", { token: user.token }],
      ["getLogo", {}],
      ["getTextsList", { id: "1" }],
      ["getCode", { purpose: "nope" }],
      ["updatePassword", {}],
      ["userRegister", {}],
    ];
    for (const [name, fields] of cases) {
      for (const method of ["GET", "POST"] as const) {
        const res = await h.call(name, fields, method);
        expect(Object.keys(res).sort(), `${method} ${name}`).toEqual(
          expect.arrayContaining(["code", "data", "message", "time"]),
        );
        expect(typeof res.code).toBe("number");
        expect(res.message.length).toBeGreaterThan(0);
        expect(Math.abs(res.time - Date.now() / 1000)).toBeLessThan(5);
      }
    }
    expect((await h.call("getCode", { purpose: "nope" })).message).toBe(fieldInvalidText("purpose"));
    expect((await h.call("info", {}, "GET")).message).toBe(errorText("LOGIN_REQUIRED"));
  });
});
