import { randomBytes } from "node:crypto";
import { subscribe, unsubscribe } from "node:diagnostics_channel";
import { eq } from "drizzle-orm";
import { authenticator } from "otplib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type Db } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { setPolicy } from "../policy/index.ts";
import { seedDatabase } from "../setup/index.ts";
import { createTestDatabase } from "../test-support/index.ts";
import {
  confirmGoogleBinding,
  loginUser,
  SECRET_VERIFY_CHANNEL,
  secretAttempts,
  setSecurityQuestions,
  startGoogleBinding,
  TotpKeyring,
  type User,
  users,
  useTotpKeyring,
  verifyGoogleCode,
  verifySecurityAnswer,
  verifyTradePassword,
} from "./index.ts";
import { hashSecret } from "./secrets.ts";

/**
 * Attempt limits under parallel requests: an attempt in flight holds one of the limit's slots, a
 * right answer gives it back without counting, and only confirmed wrong answers lock. Default policy:
 * five wrong answers lock a secret for 15 minutes.
 */
let db: Db;
let close: () => Promise<void>;
beforeAll(async () => {
  const database = await createTestDatabase();
  const conn = createDb(database.url, { max: 20 });
  conn.pool.on("error", () => {});
  await seedDatabase(conn.db);
  // Fifty checks take their turns one hash at a time: on a busy machine that is many seconds, and
  // the tests are about who passes, not how fast; the longest allowed wait keeps them from timing out.
  await setPolicy(conn.db, "security.secretAttempts.waitSeconds", 60, "test");
  useTotpKeyring(new TotpKeyring([randomBytes(32)]));
  db = conn.db;
  close = async () => {
    await conn.close();
    await database.drop();
  };
});
afterAll(async () => {
  await close?.();
});

const PASSWORD = "secret123";
const TRADE = "123456";
let hashes: Promise<{ login: string; trade: string }> | undefined;

async function newUser(): Promise<User> {
  hashes ??= Promise.all([hashSecret(PASSWORD), hashSecret(TRADE)]).then(([login, trade]) => ({
    login,
    trade,
  }));
  const { login, trade } = await hashes;
  const uid = randomBytes(6).toString("hex");
  const [user] = await db
    .insert(users)
    .values({
      uid,
      kind: "real",
      email: `${uid}@example.com`,
      passwordHash: login,
      tradePasswordHash: trade,
      nationality: "GB",
      inviteCode: `S${uid}`,
      nickname: `S${uid}`,
    })
    .returning();
  if (!user) {
    throw new Error("insert failed");
  }
  return user;
}

/** Each outcome's error code ("OK" for a success), counted. */
async function tally(attempts: Promise<unknown>[]): Promise<Record<string, number>> {
  const settled = await Promise.allSettled(attempts);
  const out: Record<string, number> = {};
  for (const s of settled) {
    if (s.status === "rejected" && !(s.reason instanceof AppError)) {
      throw s.reason;
    }
    const code = s.status === "fulfilled" ? "OK" : (s.reason as AppError).code;
    out[code] = (out[code] ?? 0) + 1;
  }
  return out;
}

/** How many hashes `run` compares (every comparison publishes on the verify channel). */
async function comparisons<T>(run: () => Promise<T>): Promise<{ value: T; compared: number }> {
  let compared = 0;
  const onVerify = () => {
    compared += 1;
  };
  subscribe(SECRET_VERIFY_CHANNEL, onVerify);
  try {
    return { value: await run(), compared };
  } finally {
    unsubscribe(SECRET_VERIFY_CHANNEL, onVerify);
  }
}

const failuresOf = async (kind: string, subject: string) => {
  const rows = await db.select().from(secretAttempts).where(eq(secretAttempts.subject, subject));
  const row = rows.find((r) => r.kind === kind);
  return { failures: row?.failures ?? 0, locked: Boolean(row?.lockedUntil) };
};

describe("trade password under parallel requests", { timeout: 240_000 }, () => {
  it("50 parallel checks with the right trade password all pass, and none counts as a failure", async () => {
    const u = await newUser();
    const result = await tally(Array.from({ length: 50 }, () => verifyTradePassword(db, u.id, TRADE)));
    expect(result).toEqual({ OK: 50 });
    expect(await failuresOf("trade_password", `user:${u.id}`)).toEqual({ failures: 0, locked: false });
  });

  it("50 parallel wrong guesses: at most five are compared, then it is locked", async () => {
    const u = await newUser();
    const { value, compared } = await comparisons(() =>
      tally(Array.from({ length: 50 }, () => verifyTradePassword(db, u.id, "654321"))),
    );
    expect(value).toEqual({ TRADE_PASSWORD_WRONG: 5, TRADE_PASSWORD_LOCKED: 45 });
    expect(compared).toBe(5);
    expect(await failuresOf("trade_password", `user:${u.id}`)).toEqual({ failures: 5, locked: true });
    await expect(verifyTradePassword(db, u.id, TRADE)).rejects.toMatchObject({
      code: "TRADE_PASSWORD_LOCKED",
    });
  });

  it("four wrong and forty right at once: every right one passes and nothing locks", async () => {
    const u = await newUser();
    const attempts = Array.from({ length: 44 }, (_, i) =>
      verifyTradePassword(db, u.id, i % 11 === 0 ? "654321" : TRADE),
    );
    expect(await tally(attempts)).toEqual({ OK: 40, TRADE_PASSWORD_WRONG: 4 });
    expect((await failuresOf("trade_password", `user:${u.id}`)).locked).toBe(false);
    await expect(verifyTradePassword(db, u.id, TRADE)).resolves.toBeUndefined();
  });
});

describe("login password and security answers under parallel requests", { timeout: 240_000 }, () => {
  it("30 parallel logins with the right password all get a session; no failure is counted", async () => {
    const u = await newUser();
    const login = () =>
      loginUser(db, { input: { type: "email", account: u.email ?? "", password: PASSWORD } });
    expect(await tally(Array.from({ length: 30 }, login))).toEqual({ OK: 30 });
    expect(await failuresOf("login_password", `user:${u.id}`)).toEqual({ failures: 0, locked: false });
  });

  it("30 parallel wrong logins compare at most five and lock", async () => {
    const u = await newUser();
    const login = () =>
      loginUser(db, { input: { type: "email", account: u.email ?? "", password: "nope12" } });
    const { value, compared } = await comparisons(() => tally(Array.from({ length: 30 }, login)));
    expect(value).toEqual({ WRONG_CREDENTIALS: 4, ACCOUNT_LOCKED: 26 });
    expect(compared).toBe(5);
  });

  it("20 parallel right security answers all pass", async () => {
    const u = await newUser();
    const answers = [1, 2, 3].map((question_id) => ({ question_id, answer: `answer ${question_id}` }));
    await setSecurityQuestions(db, u, { answers, login_password: PASSWORD });
    const check = () => verifySecurityAnswer(db, u, { question_id: 2, answer: "Answer 2" });
    expect(await tally(Array.from({ length: 20 }, check))).toEqual({ OK: 20 });
    expect(await failuresOf("security_answer", `user:${u.id}`)).toEqual({ failures: 0, locked: false });
  });
});

describe("Google codes sent again", { timeout: 60_000 }, () => {
  it("10 parallel submissions of one valid code: one accepted, the rest refused as used, nothing counted", async () => {
    const u = await newUser();
    const { secret } = await startGoogleBinding(db, u, "Northstar");
    await confirmGoogleBinding(db, u, authenticator.clone({ epoch: Date.now() }).generate(secret));
    const code = authenticator.clone({ epoch: Date.now() + 30_000 }).generate(secret);
    const result = await tally(Array.from({ length: 10 }, () => verifyGoogleCode(db, u.id, code)));
    expect(result).toEqual({ OK: 1, GOOGLE_CODE_USED: 9 });
    expect(await failuresOf("totp", `user:${u.id}`)).toEqual({ failures: 0, locked: false });
  });
});
