import { randomBytes } from "node:crypto";
import { MoneyDecimal } from "@northstar/shared/money";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type Db } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { type User, users } from "../identity/index.ts";
import { getUserBalances, postEntry, reconcileLedger } from "../ledger/index.ts";
import { REFERENCE_PRICES_USDT } from "../markets/index.ts";
import { seedDatabase } from "../setup/index.ts";
import { createTestDatabase } from "../test-support/index.ts";
import { type ConversionDeps, convertAtQuote, createConversionQuote } from "./conversion-quotes.ts";

/**
 * Firm conversion quotes: the amount credited is the amount confirmed, to the last decimal, whatever
 * the price did in between; a quote past its seconds, used, or another user's converts nothing.
 */
let db: Db;
let teardown: () => Promise<void>;
// Prices the test moves, and a clock it moves: no sleeping.
const live: Record<string, string> = { ...REFERENCE_PRICES_USDT };
let clock = new Date("2026-11-28T10:00:00Z");
let deps: ConversionDeps;
beforeAll(async () => {
  const database = await createTestDatabase();
  const conn = createDb(database.url, { max: 10 });
  conn.pool.on("error", () => {});
  db = conn.db;
  await seedDatabase(db);
  deps = { db, prices: { priceInUsdt: async (c) => live[c] ?? null }, now: () => clock };
  teardown = async () => {
    await conn.close();
    await database.drop();
  };
});
afterAll(async () => {
  await teardown?.();
});

async function userWith(usdt: string): Promise<User> {
  const uid = String(10_000_000 + Math.floor(Math.random() * 89_999_999));
  const [user] = await db
    .insert(users)
    .values({
      uid,
      passwordHash: "x",
      nationality: "GB",
      inviteCode: `Q${randomBytes(4).toString("hex")}`,
      nickname: `U${uid}`,
    })
    .returning();
  if (!user) {
    throw new Error("insert failed");
  }
  const key = `grant:${user.id}`;
  await postEntry(db, {
    idempotencyKey: key,
    kind: "test.grant",
    reference: { type: "test", id: key },
    postings: [
      { account: { system: "deposit_clearing:test", book: "real", currency: "USDT" }, amount: `-${usdt}` },
      { account: { userId: user.id, book: "real", wallet: "exchange", currency: "USDT" }, amount: usdt },
    ],
  });
  return user;
}

/** The exchange wallet's available balance, as a plain decimal ("0.0999", not "0.099900000000000000"). */
async function available(user: User, currency: string): Promise<string> {
  const rows = await getUserBalances(db, user.id, "real");
  const row = rows.find((r) => r.wallet === "exchange" && r.currency === currency);
  return new MoneyDecimal(row?.available ?? "0").toFixed();
}

const refusal = async (p: Promise<unknown>) => {
  const error = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return (error as AppError).code;
};

describe("firm conversion quotes", () => {
  it("credits exactly the confirmed amount although the price moved after the quote", async () => {
    const user = await userWith("9000");
    const firm = await createConversionQuote(deps, user, { from: "USDT", to: "BTC", amount: "9000" });
    expect(firm.seconds).toBe(10);
    // BTC rises 1% while the user reads the dialog: the quote of the moment would give less.
    live.BTC = "90900";
    const now = await createConversionQuote(deps, user, { from: "USDT", to: "BTC", amount: "9000" });
    expect(now.received).not.toBe(firm.received);
    clock = new Date(clock.getTime() + 9_000);
    const done = await convertAtQuote(deps, user, { quote_id: firm.id });
    expect(new MoneyDecimal(done.received).toFixed()).toBe(firm.received);
    expect(await available(user, "BTC")).toBe(firm.received);
    expect(await available(user, "USDT")).toBe("0");
    expect((await reconcileLedger(db)).ok).toBe(true);
    live.BTC = REFERENCE_PRICES_USDT.BTC as string;
  });

  it("refuses an expired quote with nothing moved, and a used, foreign or unknown one", async () => {
    const user = await userWith("100");
    const other = await userWith("100");
    const firm = await createConversionQuote(deps, user, { from: "USDT", to: "ETH", amount: "100" });
    expect(await refusal(convertAtQuote(deps, other, { quote_id: firm.id }))).toBe("QUOTE_NOT_FOUND");
    expect(
      await refusal(convertAtQuote(deps, user, { quote_id: "00000000-0000-4000-8000-000000000000" })),
    ).toBe("QUOTE_NOT_FOUND");
    clock = new Date(clock.getTime() + 10_000);
    expect(await refusal(convertAtQuote(deps, user, { quote_id: firm.id }))).toBe("QUOTE_EXPIRED");
    expect(await available(user, "USDT")).toBe("100");
    expect(await available(user, "ETH")).toBe("0");

    const fresh = await createConversionQuote(deps, user, { from: "USDT", to: "ETH", amount: "100" });
    // Two confirmations of one quote at once (two tabs, no shared idempotency key): one converts.
    const results = await Promise.allSettled([
      convertAtQuote(deps, user, { quote_id: fresh.id }),
      convertAtQuote(deps, user, { quote_id: fresh.id }),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(await refusal(convertAtQuote(deps, user, { quote_id: fresh.id }))).toBe("QUOTE_USED");
    expect(await available(user, "ETH")).toBe(fresh.received);
    expect((await reconcileLedger(db)).ok).toBe(true);
  });

  it("refuses a quote for more than the balance at confirmation, moving nothing", async () => {
    const user = await userWith("50");
    const firm = await createConversionQuote(deps, user, { from: "USDT", to: "BTC", amount: "60" });
    expect(await refusal(convertAtQuote(deps, user, { quote_id: firm.id }))).toBe("INSUFFICIENT_BALANCE");
    expect(await available(user, "USDT")).toBe("50");
  });
});
