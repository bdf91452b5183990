import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { countUsers, expectRefusal, loginByEmail, newEmail, query } from "../test/fixtures.ts";
import { createHarness, type Harness } from "../test/harness.ts";

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h?.close();
});

const tally = (codes: (string | undefined)[]) =>
  codes.reduce<Record<string, number>>((acc, c) => {
    const key = c ?? "OK";
    acc[key] = (acc[key] ?? 0) + 1;
    return acc;
  }, {});
const errorOf = (data: unknown) => (data as { error?: string } | null)?.error;

describe("concurrent requests", () => {
  it("issues exactly one code, and one mail, for 20 parallel getCode calls to one address", async () => {
    const email = newEmail("burst");
    const queued = vi.spyOn(h.deps.notifier, "sendCode");
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        h.call("getCode", { type: "email", account: email, purpose: "register" }),
      ),
    );
    expect(tally(results.map((r) => errorOf(r.data)))).toEqual({ OK: 1, CODE_TOO_FREQUENT: 19 });
    for (const refused of results.filter((r) => r.code !== 0)) {
      expectRefusal(refused, "CODE_TOO_FREQUENT", {
        params: { seconds: Number(/\d+/.exec(refused.message)?.[0]) },
      });
    }
    const [row] = await query<{ n: number }>(
      h,
      "select count(*)::int as n from verification_codes where target = $1",
      [email],
    );
    expect(row?.n).toBe(1);

    // Every request has answered, and a request queues its mail before it answers: one queued
    // message is every mail there will be.
    expect(queued.mock.calls.map(([job]) => job.to)).toEqual([email]);
    queued.mockRestore();
    const code = await h.mailbox.waitForCode(email);
    expect(h.mailbox.mails.filter((m) => m.to.includes(email))).toHaveLength(1);
    // And that one code works.
    const form = {
      type: "email",
      account: email,
      password: "secret123",
      confirm_password: "secret123",
      nationality: "GB",
      agree: "1",
    };
    expect((await h.call("userRegister", { ...form, code })).code).toBe(0);
  });

  it("never lets 10 parallel wrong passwords slip past the lockout", async () => {
    const u = await h.registerByEmail();
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        h.call("userLogin", { type: "email", account: u.email, password: "wrong-pass" }),
      ),
    );
    // Exactly maxFailures - 1 warnings, each count once, then locked: no request is told it has tries left
    // once the account is locked.
    expect(tally(results.map((r) => errorOf(r.data)))).toEqual({ WRONG_CREDENTIALS: 4, ACCOUNT_LOCKED: 6 });
    const remaining = results
      .filter((r) => errorOf(r.data) === "WRONG_CREDENTIALS")
      .map((r) => Number(/\d+/.exec(r.message)?.[0]))
      .sort();
    expect(remaining).toEqual([1, 2, 3, 4]);

    expectRefusal(
      await h.call("userLogin", { type: "email", account: u.email, password: u.password }),
      "ACCOUNT_LOCKED",
      {
        params: { minutes: 15 },
      },
    );
    // When the lock ends the user gets a full set of tries again.
    await query(
      h,
      "update secret_attempts set locked_until = now() - interval '1 second' where kind = 'login_password' and subject = (select 'user:' || id from users where email = $1)",
      [u.email],
    );
    expectRefusal(
      await h.call("userLogin", { type: "email", account: u.email, password: "wrong-pass" }),
      "WRONG_CREDENTIALS",
      {
        params: { remaining: 4 },
      },
    );
    await loginByEmail(h, u.email, u.password);
  });

  it("creates one account when the same registration is sent twice at once", async () => {
    const email = newEmail("twice");
    expect((await h.call("getCode", { type: "email", account: email, purpose: "register" })).code).toBe(0);
    const code = await h.mailbox.waitForCode(email);
    const before = await countUsers(h);
    const form = {
      type: "email",
      account: email,
      password: "secret123",
      confirm_password: "secret123",
      code,
      nationality: "GB",
      agree: "1",
    };
    const results = await Promise.all(Array.from({ length: 5 }, () => h.call("userRegister", form)));
    expect(results.filter((r) => r.code === 0)).toHaveLength(1);
    for (const r of results.filter((x) => x.code !== 0)) {
      expect(["ACCOUNT_EXISTS", "CODE_WRONG"]).toContain(errorOf(r.data));
    }
    expect(await countUsers(h)).toBe(before + 1);
  });

  it("lets only one of several parallel first trade passwords win", async () => {
    const u = await h.registerByEmail();
    const results = await Promise.all(
      ["111111", "222222", "333333", "444444", "555555"].map((p) =>
        h.trpc(
          "identity.setTradePassword",
          { login_password: u.password, trade_password: p, confirm_password: p },
          u.token,
        ),
      ),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.body.error?.data.errorCode === "TRADE_PASSWORD_ALREADY_SET")).toHaveLength(
      4,
    );
  });
});

describe("rate limits on login, code sending and registration", () => {
  let limited: Harness;
  beforeAll(async () => {
    limited = await createHarness({ authRatePerMinute: 3 });
  });
  afterAll(async () => {
    await limited?.close();
  });

  it("answers RATE_LIMITED in the envelope, translated, once a client passes the limit", async () => {
    const attempt = () =>
      limited.call("userLogin", {
        type: "email",
        account: "nobody@example.com",
        password: "secret123",
        lang: "zh",
      });
    for (let i = 0; i < 3; i++) {
      expect((await attempt()).data).toMatchObject({ error: "WRONG_CREDENTIALS" });
    }
    expectRefusal(await attempt(), "RATE_LIMITED", { lang: "zh" });
    // Other calls are not throttled.
    expect((await limited.call("getLogo", {})).code).toBe(0);
  });
});
