import { randomBytes } from "node:crypto";
import { confirmOperatorTotp, startOperatorTotp, upsertOperator } from "@northstar/domain/admin";
import { authenticator } from "otplib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorText, expectOk, expectTrpcRefusal, query } from "../test/fixtures.ts";
import { createHarness, type Harness } from "../test/harness.ts";
import {
  ADDR,
  addAddress,
  dataOf,
  grant,
  operatorToken,
  policy,
  setDepositAddress,
  setTradePassword,
  type TrpcResult,
  userIdOf,
} from "../test/money.ts";

/**
 * Attempt limits on every secret, through the calls users and operators make. Default policy: five
 * wrong guesses lock a secret for 15 minutes, whichever call they came through.
 */
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
  const op = await operatorToken(h, "finance");
  await setDepositAddress(h, op, "USDT", "ERC20", ADDR.ERC20);
  await policy(h, "funding.withdraw.window", { start: 0, end: 24, timeZone: "Asia/Hong_Kong" });
  // Parallel right answers take their turns one hash at a time; on a busy machine that is seconds.
  await policy(h, "security.secretAttempts.waitSeconds", 60);
});
afterAll(async () => {
  await h?.close();
});

const LOCKED = { minutes: 15 };
type Ready = { token: string; password: string; userId: number; addressId: number };

async function readyUser(funds = "1000"): Promise<Ready> {
  const u = await h.registerByEmail();
  await setTradePassword(h, u);
  const userId = await userIdOf(h, u.token);
  await grant(h, userId, funds);
  return { ...u, userId, addressId: await addAddress(h, u.token, "ERC20") };
}
const withdraw = (u: Ready, extra: Record<string, unknown> = {}) =>
  h.trpc(
    "withdrawal.create",
    { currency: "USDT", address_id: u.addressId, amount: "100", trade_password: "123456", ...extra },
    u.token,
  );
const errorCodes = (results: TrpcResult[]) => results.map((r) => r.body.error?.data.errorCode ?? "OK");
const tally = (codes: string[]) =>
  codes.reduce<Record<string, number>>((acc, c) => {
    acc[c] = (acc[c] ?? 0) + 1;
    return acc;
  }, {});

/** The code of the time step `offset` steps from now: each step's code is accepted once. */
const codeAt = (secret: string, offset = 0) =>
  authenticator.clone({ epoch: Date.now() + offset * 30_000 }).generate(secret);

async function bindGoogle(u: Ready): Promise<string> {
  const { secret } = dataOf<{ secret: string }>(await h.trpc("googleAuth.start", undefined, u.token));
  expectOk(await h.trpc("googleAuth.confirm", { code: codeAt(secret) }, u.token));
  return secret;
}
/** A 6-digit code that is wrong for `secret` in every accepted step. */
function wrongCode(secret: string): string {
  for (let i = 0; ; i++) {
    const candidate = String(i).padStart(6, "0");
    if (![-1, 0, 1].some((o) => codeAt(secret, o) === candidate)) {
      return candidate;
    }
  }
}

describe("trade password attempts", () => {
  it("locks after five wrong guesses; the sixth is refused even when right, naming how long", async () => {
    const u = await readyUser();
    for (let i = 0; i < 5; i++) {
      expectTrpcRefusal(await withdraw(u, { trade_password: "654321" }), "TRADE_PASSWORD_WRONG");
    }
    const locked = await withdraw(u);
    expectTrpcRefusal(locked, "TRADE_PASSWORD_LOCKED", { params: LOCKED });
    expect(locked.body.error?.data.field).toBe("trade_password");
    const rows = await query<{ n: number }>(
      h,
      "select count(*)::int as n from withdrawals where user_id = $1",
      [u.userId],
    );
    expect(rows[0]?.n).toBe(0);
  });

  it("a right answer resets the count", async () => {
    const u = await readyUser();
    for (let i = 0; i < 4; i++) {
      expectTrpcRefusal(await withdraw(u, { trade_password: "654321" }), "TRADE_PASSWORD_WRONG");
    }
    expectOk(await withdraw(u));
    for (let i = 0; i < 4; i++) {
      expectTrpcRefusal(await withdraw(u, { trade_password: "654321" }), "TRADE_PASSWORD_WRONG");
    }
    expectOk(await withdraw(u));
  });

  it("guesses on withdrawals, spot orders and changing it share one counter", async () => {
    const u = await readyUser();
    await policy(h, "spot.tradePassword.required", true);
    const order = { symbol: "BTCUSDT", side: "buy", type: "limit", price: "50000", quantity: "0.001" };
    const place = (trade_password: string) => h.trpc("spot.place", { ...order, trade_password }, u.token);
    // Spot terms are cached for a second: wait until an order without the password is refused.
    for (let i = 0; i < 200; i++) {
      const res = await h.trpc("spot.terms", { symbol: "BTCUSDT" }, undefined, "query");
      if (dataOf<{ tradePasswordRequired: boolean }>(res).tradePasswordRequired) {
        break;
      }
      await new Promise((r) => setTimeout(r, 20));
    }
    const change = (old_trade_password: string) =>
      h.trpc(
        "identity.changeTradePassword",
        { mode: "old", old_trade_password, trade_password: "222222", confirm_password: "222222" },
        u.token,
      );
    expectTrpcRefusal(await withdraw(u, { trade_password: "654321" }), "TRADE_PASSWORD_WRONG");
    expectTrpcRefusal(await withdraw(u, { trade_password: "654321" }), "TRADE_PASSWORD_WRONG");
    expectTrpcRefusal(await place("654321"), "TRADE_PASSWORD_WRONG");
    expectTrpcRefusal(await place("654321"), "TRADE_PASSWORD_WRONG");
    expectTrpcRefusal(await change("654321"), "TRADE_PASSWORD_WRONG");
    expectTrpcRefusal(await change("123456"), "TRADE_PASSWORD_LOCKED", { params: LOCKED });
    expectTrpcRefusal(await place("123456"), "TRADE_PASSWORD_LOCKED", { params: LOCKED });
    expectTrpcRefusal(await withdraw(u), "TRADE_PASSWORD_LOCKED", { params: LOCKED });
    await policy(h, "spot.tradePassword.required", false);
  });

  it("30 simultaneous wrong guesses: exactly five are checked, the rest refused as locked", async () => {
    const u = await readyUser();
    const results = await Promise.all(
      Array.from({ length: 30 }, () => withdraw(u, { trade_password: "654321" })),
    );
    expect(tally(errorCodes(results))).toEqual({ TRADE_PASSWORD_WRONG: 5, TRADE_PASSWORD_LOCKED: 25 });
    expectTrpcRefusal(await withdraw(u), "TRADE_PASSWORD_LOCKED", { params: LOCKED });
  });

  it("the limit and the lock are policy values", async () => {
    await policy(h, "security.tradePassword.maxFailures", 3);
    await policy(h, "security.tradePassword.lockMinutes", 40);
    try {
      const u = await readyUser();
      for (let i = 0; i < 3; i++) {
        expectTrpcRefusal(await withdraw(u, { trade_password: "654321" }), "TRADE_PASSWORD_WRONG");
      }
      expectTrpcRefusal(await withdraw(u), "TRADE_PASSWORD_LOCKED", { params: { minutes: 40 } });
      // Once the lock has passed, the right password goes through again.
      await query(
        h,
        "update secret_attempts set locked_until = now() - interval '1 second' where subject = $1",
        [`user:${u.userId}`],
      );
      expectOk(await withdraw(u));
    } finally {
      await policy(h, "security.tradePassword.maxFailures", 5);
      await policy(h, "security.tradePassword.lockMinutes", 15);
    }
  });
});

describe("security answer attempts", () => {
  it("five wrong answers (to any of the three questions) lock them; even a right one is then refused", async () => {
    const u = await h.registerByEmail();
    const answers = [
      { question_id: 1, answer: "Paris" },
      { question_id: 2, answer: "Rex" },
      { question_id: 3, answer: "blue" },
    ];
    expectOk(await h.trpc("identity.setSecurityQuestions", { answers, login_password: u.password }, u.token));
    const verify = (question_id: number, answer: string) =>
      h.trpc("identity.verifySecurityAnswer", { question_id, answer }, u.token);
    for (const q of [1, 2, 3, 1, 2]) {
      expectTrpcRefusal(await verify(q, "wrong"), "SECURITY_ANSWER_WRONG");
    }
    const locked = await verify(1, "Paris");
    expectTrpcRefusal(locked, "SECURITY_ANSWER_LOCKED", { params: LOCKED });
    expect(locked.body.error?.data.field).toBe("answer");
  });

  it("20 simultaneous wrong answers lock exactly at the limit", async () => {
    const u = await h.registerByEmail();
    const answers = [1, 2, 3].map((question_id) => ({ question_id, answer: "same" }));
    expectOk(await h.trpc("identity.setSecurityQuestions", { answers, login_password: u.password }, u.token));
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        h.trpc("identity.verifySecurityAnswer", { question_id: 1, answer: "other" }, u.token),
      ),
    );
    expect(tally(errorCodes(results))).toEqual({ SECURITY_ANSWER_WRONG: 5, SECURITY_ANSWER_LOCKED: 15 });
  });
});

describe("Google Authenticator codes", () => {
  it("five wrong codes at binding lock it; the right code is then refused", async () => {
    const u = await readyUser();
    const { secret } = dataOf<{ secret: string }>(await h.trpc("googleAuth.start", undefined, u.token));
    for (let i = 0; i < 5; i++) {
      expectTrpcRefusal(
        await h.trpc("googleAuth.confirm", { code: wrongCode(secret) }, u.token),
        "GOOGLE_CODE_WRONG",
      );
    }
    const locked = await h.trpc("googleAuth.confirm", { code: codeAt(secret) }, u.token);
    expectTrpcRefusal(locked, "GOOGLE_CODE_LOCKED", { params: LOCKED });
    expect(locked.body.error?.data.field).toBe("code");
  });

  it("five wrong codes on withdrawals lock it; the right code is then refused", async () => {
    const u = await readyUser();
    const secret = await bindGoogle(u);
    for (let i = 0; i < 5; i++) {
      expectTrpcRefusal(await withdraw(u, { google_code: wrongCode(secret) }), "GOOGLE_CODE_WRONG");
    }
    const locked = await withdraw(u, { google_code: codeAt(secret, 1) });
    expectTrpcRefusal(locked, "GOOGLE_CODE_LOCKED", { params: LOCKED });
    expect(locked.body.error?.data.field).toBe("google_code");
  });

  it("a code is used once: the binding code cannot withdraw, a withdrawal's code cannot withdraw again", async () => {
    const u = await readyUser();
    const { secret } = dataOf<{ secret: string }>(await h.trpc("googleAuth.start", undefined, u.token));
    const first = codeAt(secret);
    expectOk(await h.trpc("googleAuth.confirm", { code: first }, u.token));
    expectTrpcRefusal(await withdraw(u, { google_code: first }), "GOOGLE_CODE_USED");
    const next = codeAt(secret, 1);
    expectOk(await withdraw(u, { google_code: next }));
    const again = await withdraw(u, { google_code: next });
    expectTrpcRefusal(again, "GOOGLE_CODE_USED");
    expect(again.body.error?.data.field).toBe("google_code");
  });

  it("two simultaneous withdrawals with one code: one goes through", async () => {
    const u = await readyUser();
    const secret = await bindGoogle(u);
    const code = codeAt(secret, 1);
    const results = await Promise.all([
      withdraw(u, { google_code: code }),
      withdraw(u, { google_code: code }),
    ]);
    expect(tally(errorCodes(results))).toEqual({ OK: 1, GOOGLE_CODE_USED: 1 });
  });

  it("20 simultaneous wrong codes lock exactly at the limit", async () => {
    const u = await readyUser();
    const { secret } = dataOf<{ secret: string }>(await h.trpc("googleAuth.start", undefined, u.token));
    const results = await Promise.all(
      Array.from({ length: 20 }, () => h.trpc("googleAuth.confirm", { code: wrongCode(secret) }, u.token)),
    );
    expect(tally(errorCodes(results))).toEqual({ GOOGLE_CODE_WRONG: 5, GOOGLE_CODE_LOCKED: 15 });
  });
});

describe("operator login attempts", { timeout: 180_000 }, () => {
  const login = (username: string, password: string, address = "10.0.0.1") =>
    h.app
      .inject({
        method: "POST",
        url: "/trpc/admin.login",
        payload: JSON.stringify({ username, password }),
        headers: { "content-type": "application/json" },
        remoteAddress: address,
      })
      .then((r) => ({ status: r.statusCode, body: r.json() }) as TrpcResult);
  async function newOperator() {
    const username = `ops-${randomBytes(3).toString("hex")}`;
    const password = randomBytes(12).toString("base64url");
    await upsertOperator(h.db, { username, password, role: "support", actor: "test" });
    return { username, password };
  }
  const audit = (subject: string) =>
    query<{ action: string; details: Record<string, unknown> }>(
      h,
      "select action, details from audit_log where subject = $1 and action like 'operator.login%' order by id",
      [subject],
    );

  it("says plainly that the name or password is wrong, with no attempt count", async () => {
    const op = await newOperator();
    const res = await login(op.username, "wrong-password");
    expectTrpcRefusal(res, "OPERATOR_LOGIN_WRONG");
    expect(res.body.error?.message).toBe(errorText("OPERATOR_LOGIN_WRONG"));
    expect(res.body.error?.message).not.toMatch(/-|\{\{/);
    // An unknown name answers the same.
    expectTrpcRefusal(await login(`nobody-${randomBytes(3).toString("hex")}`, "x"), "OPERATOR_LOGIN_WRONG");
  });

  it("locks the name at the address of five failures, even for the right password, and audits each failure and the lock", async () => {
    const op = await newOperator();
    for (let i = 0; i < 5; i++) {
      expectTrpcRefusal(await login(op.username, "wrong-password", "10.1.0.1"), "OPERATOR_LOGIN_WRONG");
    }
    expectTrpcRefusal(await login(op.username, op.password, "10.1.0.1"), "OPERATOR_LOCKED", {
      params: LOCKED,
    });
    const rows = await audit(op.username);
    expect(rows.map((r) => r.action)).toEqual([
      ...Array(5).fill("operator.login_failed"),
      "operator.login_locked",
      "operator.login_refused",
    ]);
    expect(rows[0]?.details).toMatchObject({ address: "10.1.0.1", failures: 1 });
    expect(rows[5]?.details).toMatchObject({ minutes: 15, scope: "address" });
  });

  it("wrong passwords from one address do not lock the operator out at another", async () => {
    const op = await newOperator();
    for (let i = 0; i < 8; i++) {
      await login(op.username, "wrong-password", "10.5.0.1");
    }
    expectTrpcRefusal(await login(op.username, op.password, "10.5.0.1"), "OPERATOR_LOCKED", {
      params: LOCKED,
    });
    expectOk(await login(op.username, op.password, "10.5.0.2"));
  });

  it("failures spread over many addresses lock the name everywhere at the per-name limit", async () => {
    await policy(h, "security.operatorLogin.globalMaxFailures", 6);
    try {
      const op = await newOperator();
      for (let i = 0; i < 6; i++) {
        expectTrpcRefusal(await login(op.username, "wrong-password", `10.6.0.${i}`), "OPERATOR_LOGIN_WRONG");
      }
      expectTrpcRefusal(await login(op.username, op.password, "10.6.1.1"), "OPERATOR_LOCKED", {
        params: LOCKED,
      });
      expect((await audit(op.username)).map((r) => r.details.scope).filter(Boolean)).toEqual([
        "everywhere",
        "everywhere",
      ]);
    } finally {
      await policy(h, "security.operatorLogin.globalMaxFailures", 100);
    }
  });

  it("10 parallel sign-ins with one valid two-factor code: one accepted, the others refused as used, no lock", async () => {
    const op = await newOperator();
    const [row] = await query<{ id: number }>(h, "select id from operators where username = $1", [
      op.username,
    ]);
    const operatorId = Number(row?.id);
    const { secret } = await startOperatorTotp(h.db, operatorId, "Northstar");
    await confirmOperatorTotp(h.db, operatorId, codeAt(secret));
    const code = codeAt(secret, 1);
    const signIn = () =>
      h.app
        .inject({
          method: "POST",
          url: "/trpc/admin.login",
          payload: JSON.stringify({ username: op.username, password: op.password, code }),
          headers: { "content-type": "application/json" },
          remoteAddress: "10.7.0.1",
        })
        .then((r) => ({ status: r.statusCode, body: r.json() }) as TrpcResult);
    const results = await Promise.all(Array.from({ length: 10 }, signIn));
    expect(tally(errorCodes(results))).toEqual({ OK: 1, OPERATOR_TOTP_USED: 9 });
    const counts = await query<{ failures: number; locked: boolean }>(
      h,
      "select failures, locked_until is not null as locked from secret_attempts where subject = $1",
      [`operator-totp:${operatorId}`],
    );
    expect(counts).toEqual([{ failures: 0, locked: false }]);
  });

  it("throttles an address after its failures, across names; another address still logs in", async () => {
    await policy(h, "security.operatorLogin.addressMaxFailures", 3);
    try {
      const op = await newOperator();
      for (let i = 0; i < 3; i++) {
        expectTrpcRefusal(await login(`guess-${i}`, "x", "10.2.0.9"), "OPERATOR_LOGIN_WRONG");
      }
      expectTrpcRefusal(await login(op.username, op.password, "10.2.0.9"), "OPERATOR_LOGIN_THROTTLED", {
        params: LOCKED,
      });
      expectOk(await login(op.username, op.password, "10.2.0.10"));
      expect((await audit("guess-0")).map((r) => r.action)).toEqual(["operator.login_failed"]);
    } finally {
      await policy(h, "security.operatorLogin.addressMaxFailures", 20);
    }
  });

  it("20 simultaneous wrong passwords from one address lock the name there exactly at the limit", async () => {
    const op = await newOperator();
    const results = await Promise.all(
      Array.from({ length: 20 }, () => login(op.username, "wrong-password", "10.3.0.1")),
    );
    expect(tally(errorCodes(results))).toEqual({ OPERATOR_LOGIN_WRONG: 5, OPERATOR_LOCKED: 15 });
  });

  it("20 simultaneous right passwords from one address all sign in", async () => {
    const op = await newOperator();
    const results = await Promise.all(
      Array.from({ length: 20 }, () => login(op.username, op.password, "10.3.0.2")),
    );
    expect(tally(errorCodes(results))).toEqual({ OK: 20 });
  });
});
