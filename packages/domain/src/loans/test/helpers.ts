import { randomBytes } from "node:crypto";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TLoanProductInput } from "@northstar/shared/contracts/loans";
import { MoneyDecimal } from "@northstar/shared/money";
import { eq, sql } from "drizzle-orm";
import { expect } from "vitest";
import { createDb, type Db } from "../../db/client.ts";
import { AppError } from "../../errors.ts";
import { type User, users } from "../../identity/index.ts";
import { applyAdvancedKyc, applyPrimaryKyc, approveKycApplication } from "../../kyc/index.ts";
import { getUserBalances, postEntry, reconcileLedger } from "../../ledger/index.ts";
import { seedDatabase } from "../../setup/index.ts";
import { createTrader } from "../../spot/testing.ts";
import { createTestDatabase } from "../../test-support/index.ts";
import { storeUpload } from "../../uploads/index.ts";
import { createLoanProduct } from "../index.ts";

/** A fresh database for one test file, seeded, with a private upload folder. */
export async function openLoansDb() {
  const database = await createTestDatabase();
  const conn = createDb(database.url, { max: 30 });
  conn.pool.on("error", () => {});
  await seedDatabase(conn.db);
  const uploadDir = await mkdtemp(join(tmpdir(), "loans-"));
  return {
    db: conn.db,
    uploadDir,
    close: async () => {
      await conn.close();
      await database.drop();
    },
  };
}

const PNG = () =>
  Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(64)]);

export const photo = async (db: Db, dir: string, user: Pick<User, "id">) =>
  (await storeUpload(db, dir, { ownerUserId: user.id, purpose: "proof", bytes: PNG() })).id;

const operator = { operatorId: 1, actor: "operator:1" };

/** A user with `funds` USDT in the exchange wallet and, by default, primary and advanced KYC approved. */
export async function borrower(
  db: Db,
  dir: string,
  funds = "0",
  levels: "none" | "primary" | "advanced" = "advanced",
): Promise<User> {
  const user = await createTrader(db, funds === "0" ? {} : { USDT: funds });
  if (levels !== "none") {
    await verify(db, dir, user, levels);
  }
  return user;
}

/** Approves the user's primary (and by default advanced) KYC, as an operator would. */
export async function verify(db: Db, dir: string, user: User, levels: "primary" | "advanced" = "advanced") {
  const primary = await applyPrimaryKyc(db, user, {
    document_type: 2,
    real_name: "Ada Lovelace",
    document_number: `X${String(1_000_000 + Math.floor(Math.random() * 8_999_999))}`,
    front_upload_id: await photo(db, dir, user),
    back_upload_id: await photo(db, dir, user),
    handheld_upload_id: await photo(db, dir, user),
  });
  await approveKycApplication(db, { applicationId: primary.id, ...operator });
  if (levels === "advanced") {
    const advanced = await applyAdvancedKyc(db, user, {
      occupation: 3,
      monthly_income: "5000",
      source_of_wealth: "Salary",
      expected_investment: "20000",
      assets: [{ kind: "bankDeposit", upload_id: await photo(db, dir, user) }],
    });
    await approveKycApplication(db, { applicationId: advanced.id, ...operator });
  }
}

/** Verifies a user known by id (an API test's registered user); answers the user. */
export async function verifyById(db: Db, dir: string, userId: number): Promise<User> {
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  if (!user) {
    throw new Error("no user");
  }
  await verify(db, dir, user);
  return user;
}

/** Every proof of SPEC section 3, uploaded by the user. */
export async function proofs(db: Db, dir: string, user: Pick<User, "id">) {
  return {
    credit_upload_id: await photo(db, dir, user),
    housing_upload_id: await photo(db, dir, user),
    income_upload_id: await photo(db, dir, user),
    bank_upload_id: await photo(db, dir, user),
    id_photo_upload_id: await photo(db, dir, user),
  };
}

export const PRODUCT: TLoanProductInput = {
  name: "Quick loan",
  currency: "USDT",
  cycle_days: [7, 14, 30],
  daily_rate: "0.001",
  overdue_rate: "0.005",
  min_amount: "100",
  max_amount: "5000",
  enabled: true,
};
export const product = (db: Db, over: Partial<TLoanProductInput> = {}) =>
  createLoanProduct(db, { ...PRODUCT, ...over }, "test");

export async function usdt(db: Db, userId: number): Promise<string> {
  const row = (await getUserBalances(db, userId, "real")).find(
    (b) => b.wallet === "exchange" && b.currency === "USDT",
  );
  return new MoneyDecimal(row?.available ?? 0).toFixed();
}

export async function systemBalance(db: Db, code: string, currency = "USDT"): Promise<string> {
  const r = await db.execute<{ balance: string }>(
    sql`select coalesce(sum(balance), 0)::text as balance from ledger_accounts where system_code = ${code} and currency = ${currency}`,
  );
  return new MoneyDecimal(r.rows[0]?.balance ?? 0).toFixed();
}

export async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

export async function expectReconciled(db: Db) {
  const report = await reconcileLedger(db);
  expect(report.mismatchedAccounts).toEqual([]);
  expect(report.unbalancedCurrencies).toEqual([]);
  expect(report.unbalancedEntries).toEqual([]);
}

/** Tops up a user's USDT (a test grant from the house account). */
export async function grant(db: Db, userId: number, amount: string, key: string) {
  await postEntry(db, {
    idempotencyKey: `test-grant:${userId}:${key}`,
    kind: "test.grant",
    reference: { type: "user", id: userId },
    postings: [
      { account: { system: "house", book: "real", currency: "USDT" }, amount: `-${amount}` },
      { account: { userId, book: "real", wallet: "exchange", currency: "USDT" }, amount },
    ],
  });
}
