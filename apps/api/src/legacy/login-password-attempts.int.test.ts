import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectOk, expectRefusal, expectTrpcRefusal, passwordHashOf, query } from "../test/fixtures.ts";
import { createHarness, type Harness } from "../test/harness.ts";
import type { TrpcResult } from "../test/money.ts";
import type { Envelope } from "./define.ts";

/**
 * The login password is one secret with one attempt limit, whichever call checks it: logging in,
 * setting the trade password, setting security questions, or changing the password with the old one.
 * Default policy: five wrong guesses lock it for 15 minutes.
 */
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h?.close();
});

type User = { email: string; password: string; token: string };
const WRONG = "wrong-pass";
const LOCKED = { minutes: 15 };

const login = (u: User, password: string) =>
  h.call("userLogin", { type: "email", account: u.email, password });
const setTradePassword = (u: User, login_password: string) =>
  h.trpc(
    "identity.setTradePassword",
    { login_password, trade_password: "123456", confirm_password: "123456" },
    u.token,
  );
const ANSWERS = [1, 2, 3].map((question_id) => ({ question_id, answer: `answer ${question_id}` }));
const setQuestions = (u: User, login_password: string) =>
  h.trpc("identity.setSecurityQuestions", { answers: ANSWERS, login_password }, u.token);
const changePassword = (u: User, old_password: string) =>
  h.call("updatePassword", {
    token: u.token,
    mode: "change",
    old_password,
    password: "newpass123",
    confirm_password: "newpass123",
  });

function expectTrpcField(res: TrpcResult, code: "OLD_PASSWORD_WRONG" | "ACCOUNT_LOCKED", field: string) {
  expectTrpcRefusal(res, code, code === "ACCOUNT_LOCKED" ? { params: LOCKED } : {});
  expect(res.body.error?.data.field).toBe(field);
}
function expectLegacyField(res: Envelope, code: "OLD_PASSWORD_WRONG" | "ACCOUNT_LOCKED") {
  expectRefusal(res, code, code === "ACCOUNT_LOCKED" ? { params: LOCKED } : {});
  expect(res.data).toMatchObject({ field: "old_password" });
}

/** Every call that takes the login password refuses the right one with the lock, and changes nothing. */
async function expectAllLocked(u: User) {
  const hash = await passwordHashOf(h, u.email);
  expectRefusal(await login(u, u.password), "ACCOUNT_LOCKED", { params: LOCKED });
  expectTrpcField(await setTradePassword(u, u.password), "ACCOUNT_LOCKED", "login_password");
  expectTrpcField(await setQuestions(u, u.password), "ACCOUNT_LOCKED", "login_password");
  expectLegacyField(await changePassword(u, u.password), "ACCOUNT_LOCKED");
  const [row] = await query<{ trade: string | null; answers: number }>(
    h,
    `select trade_password_hash as trade,
       (select count(*)::int from security_answers a where a.user_id = u.id) as answers
     from users u where email = $1`,
    [u.email],
  );
  expect(row).toEqual({ trade: null, answers: 0 });
  expect(await passwordHashOf(h, u.email)).toBe(hash);
}

describe("login password attempts across calls", () => {
  it("wrong login passwords on the trade password, security questions and password change lock the login", async () => {
    const u = await h.registerByEmail();
    expectTrpcField(await setTradePassword(u, WRONG), "OLD_PASSWORD_WRONG", "login_password");
    expectTrpcField(await setTradePassword(u, WRONG), "OLD_PASSWORD_WRONG", "login_password");
    expectTrpcField(await setQuestions(u, WRONG), "OLD_PASSWORD_WRONG", "login_password");
    expectLegacyField(await changePassword(u, WRONG), "OLD_PASSWORD_WRONG");
    expectLegacyField(await changePassword(u, WRONG), "OLD_PASSWORD_WRONG");
    await expectAllLocked(u);
  });

  it("wrong logins lock these calls, and count with them toward one limit", async () => {
    const u = await h.registerByEmail();
    for (const remaining of [4, 3, 2]) {
      expectRefusal(await login(u, WRONG), "WRONG_CREDENTIALS", { params: { remaining } });
    }
    expectTrpcField(await setQuestions(u, WRONG), "OLD_PASSWORD_WRONG", "login_password");
    // The fifth wrong guess, whichever call it came through, sets the lock.
    expectRefusal(await login(u, WRONG), "ACCOUNT_LOCKED", { params: LOCKED });
    await expectAllLocked(u);
  });

  it("a right login password on any of these calls starts the count again", async () => {
    const u = await h.registerByEmail();
    for (let i = 0; i < 4; i++) {
      expectRefusal(await login(u, WRONG), "WRONG_CREDENTIALS", { params: { remaining: 4 - i } });
    }
    expectOk(await setQuestions(u, u.password));
    expectRefusal(await login(u, WRONG), "WRONG_CREDENTIALS", { params: { remaining: 4 } });
  });

  it("20 simultaneous wrong guesses on one call compare at most five and lock the rest", async () => {
    const u = await h.registerByEmail();
    const results = await Promise.all(Array.from({ length: 20 }, () => setTradePassword(u, WRONG)));
    const codes = results.map((r) => r.body.error?.data.errorCode ?? "OK");
    expect(codes.filter((c) => c === "OLD_PASSWORD_WRONG")).toHaveLength(5);
    expect(codes.filter((c) => c === "ACCOUNT_LOCKED")).toHaveLength(15);
    await expectAllLocked(u);
  });
});
