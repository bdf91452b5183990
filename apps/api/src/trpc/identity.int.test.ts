import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ageCodes,
  errorText,
  expectOk,
  expectRefusal,
  expectTrpcRefusal,
  newEmail,
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

describe("identity.setTradePassword and identity.changeTradePassword", () => {
  it("accepts exactly 6 digits, needs the login password, and refuses a second set", async () => {
    const u = await h.registerByEmail();
    const set = (trade: string, confirm = trade, login = u.password) =>
      h.trpc(
        "identity.setTradePassword",
        { login_password: login, trade_password: trade, confirm_password: confirm },
        u.token,
      );

    for (const bad of ["12345a", "1234567", "12345", "", "12 456"]) {
      expectTrpcRefusal(await set(bad), "TRADE_PASSWORD_FORMAT");
    }
    expectTrpcRefusal(await set("123456", "123457"), "PASSWORDS_DIFFER");
    expectTrpcRefusal(await set("123456", "123456", "not-my-password"), "OLD_PASSWORD_WRONG");
    expect(await h.call("hasTpassword", { token: u.token })).toMatchObject({ data: { has: 0 } });

    expectOk(await set("123456"));
    expectTrpcRefusal(await set("654321"), "TRADE_PASSWORD_ALREADY_SET");
  });

  it("changes the trade password with the old one, or with a code to the bound email", async () => {
    const u = await h.registerByEmail();
    const change = (input: Record<string, string>) => h.trpc("identity.changeTradePassword", input, u.token);
    const byOld = (old: string, next: string) =>
      change({ mode: "old", old_trade_password: old, trade_password: next, confirm_password: next });

    expectTrpcRefusal(await byOld("123456", "222222"), "TRADE_PASSWORD_NOT_SET");
    expectOk(
      await h.trpc(
        "identity.setTradePassword",
        { login_password: u.password, trade_password: "111111", confirm_password: "111111" },
        u.token,
      ),
    );
    expectTrpcRefusal(await byOld("999999", "222222"), "TRADE_PASSWORD_WRONG");
    expectTrpcRefusal(await byOld("111111", "22222x"), "TRADE_PASSWORD_FORMAT");
    expectOk(await byOld("111111", "222222"));
    expectTrpcRefusal(await byOld("111111", "333333"), "TRADE_PASSWORD_WRONG");

    await ageCodes(h, u.email);
    expect((await h.call("getCode", { token: u.token, type: "email", purpose: "tradepwd" })).code).toBe(0);
    const code = await h.mailbox.waitForCode(u.email, { after: 1 });
    const byCode = { mode: "code", type: "email", trade_password: "444444", confirm_password: "444444" };
    expectTrpcRefusal(
      await change({ ...byCode, code: code === "000000" ? "000001" : "000000" }),
      "CODE_WRONG",
    );
    expectOk(await change({ ...byCode, code }));
    expectTrpcRefusal(await change({ ...byCode, code }), "CODE_WRONG");
    expectOk(await byOld("444444", "555555"));
  });
});

describe("identity.bindEmail and identity.bindPhone", () => {
  it("binds an email to a phone user by a code sent to the new address, and refuses one in use", async () => {
    const u = await registerByPhone(h, "13500001111");
    const taken = await h.registerByEmail();
    expectRefusal(
      await h.call("getCode", { token: u.token, type: "email", account: taken.email, purpose: "bind" }),
      "ALREADY_BOUND",
    );
    expectRefusal(
      await h.call("getCode", { type: "email", account: newEmail("anon"), purpose: "bind" }),
      "LOGIN_REQUIRED",
      {
        responseCode: 2000,
      },
    );

    const email = newEmail("bind");
    expect(
      (await h.call("getCode", { token: u.token, type: "email", account: email, purpose: "bind" })).code,
    ).toBe(0);
    const code = await h.mailbox.waitForCode(email);
    expectTrpcRefusal(
      await h.trpc("identity.bindEmail", { email: taken.email, code }, u.token),
      "ALREADY_BOUND",
    );
    expectTrpcRefusal(await h.trpc("identity.bindEmail", { email: "nope", code }, u.token), "EMAIL_FORMAT");
    expectOk(await h.trpc("identity.bindEmail", { email: email.toUpperCase(), code }, u.token));
    expect((await h.call("info", { token: u.token })).data).toMatchObject({ email, phone: "13500001111" });
    expect((await h.call("userLogin", { type: "email", account: email, password: u.password })).code).toBe(0);
  });

  it("binds a phone to an email user by a code sent by SMS", async () => {
    const u = await h.registerByEmail();
    const phone = { type: "phone", area_code: "86", account: "13600002222" };
    expectRefusal(
      await h.call("getCode", { ...phone, account: "1360000", token: u.token, purpose: "bind" }),
      "PHONE_FORMAT",
    );
    expect((await h.call("getCode", { ...phone, token: u.token, purpose: "bind" })).code).toBe(0);
    const code = await waitForSmsCode(h, "+8613600002222");
    expectTrpcRefusal(
      await h.trpc("identity.bindPhone", { area_code: "86", phone: "1360000", code }, u.token),
      "PHONE_FORMAT",
    );
    expectOk(await h.trpc("identity.bindPhone", { area_code: "86", phone: "13600002222", code }, u.token));
    const info = await h.call("info", { token: u.token });
    expect(info.data).toMatchObject({
      phone: "13600002222",
      area_code: "86",
      phone_mask: "136**002222",
      display_account: "13600002222",
    });
    const other = await h.registerByEmail();
    expectRefusal(
      await h.call("getCode", { ...phone, token: other.token, purpose: "bind" }),
      "ALREADY_BOUND",
    );
  });
});

describe("tRPC sessions and languages", () => {
  it("answers responseCode 2000 without a token and 1000 for a session the server ended", async () => {
    for (const token of [undefined, "garbage"]) {
      expectTrpcRefusal(await h.trpc("identity.get", undefined, token, "query"), "LOGIN_REQUIRED", {
        responseCode: 2000,
      });
      expectTrpcRefusal(await h.trpc("identity.logout", undefined, token), "LOGIN_REQUIRED", {
        responseCode: 2000,
      });
    }
    const u = await h.registerByEmail();
    expect((await h.trpc("identity.get", undefined, u.token, "query")).body.result?.data).toMatchObject({
      email: u.email,
    });
    await h.call("updatePassword", {
      mode: "change",
      token: u.token,
      old_password: u.password,
      password: "x12345",
      confirm_password: "x12345",
    });
    const other = await h.call("userLogin", { type: "email", account: u.email, password: "x12345" });
    const otherToken = (other.data as { token: string }).token;
    await h.call("updatePassword", {
      mode: "change",
      token: u.token,
      old_password: "x12345",
      password: "y12345",
      confirm_password: "y12345",
    });
    expectTrpcRefusal(await h.trpc("identity.get", undefined, otherToken, "query"), "SESSION_ENDED", {
      responseCode: 1000,
    });
  });

  it("answers in the language of the lang header", async () => {
    const res = await h.app.inject({ method: "GET", url: "/trpc/identity.get", headers: { lang: "zh" } });
    expect(res.json().error.message).toBe(errorText("LOGIN_REQUIRED", "zh"));
  });
});
