import { randomBytes } from "node:crypto";
import { translate } from "@northstar/shared/i18n";
import { MoneyDecimal } from "@northstar/shared/money";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createDb, type Db } from "../db/client.ts";
import { AppError } from "../errors.ts";
import type { User } from "../identity/index.ts";
import { hashSecret, users } from "../identity/index.ts";
import { getUserBalances, postEntry, reconcileLedger } from "../ledger/index.ts";
import { createFixedPriceProvider } from "../markets/index.ts";
import { setPolicy } from "../policy/index.ts";
import { seedDatabase } from "../setup/index.ts";
import { createTestDatabase } from "../test-support/index.ts";
import { addWithdrawalAddress } from "./addresses.ts";
import { confirmDeposit } from "./deposits.ts";
import { deposits, withdrawals } from "./funding.table.ts";
import { applyWithdrawal, getWithdrawalTerms } from "./withdrawals.ts";

/**
 * The withdrawal service with fixed instants (the Hong Kong window) and under concurrency. The API
 * tests cover the other rules through HTTP; here `now` is an argument, so no test depends on the hour.
 */
let db: Db;
let teardown: () => Promise<void>;
let tradePasswordHash: string;
const prices = createFixedPriceProvider();
beforeAll(async () => {
  const database = await createTestDatabase();
  const conn = createDb(database.url, { max: 20 });
  // The forced DROP DATABASE at the end can end a connection still closing; expected then.
  conn.pool.on("error", () => {});
  db = conn.db;
  await seedDatabase(db);
  tradePasswordHash = await hashSecret("123456");
  teardown = async () => {
    await conn.close();
    await database.drop();
  };
});
afterAll(async () => {
  await teardown?.();
});

/**
 * A real user with a trade password, an ERC20 USDT address and `funds` USDT in the exchange wallet:
 * a ledger grant that carries no turnover requirement, or a deposit confirmed by an operator.
 */
async function fundedUser(
  funds: string,
  via: "grant" | "deposit" = "grant",
): Promise<{ user: User; addressId: number }> {
  const uid = String(10_000_000 + Math.floor(Math.random() * 89_999_999));
  const [user] = await db
    .insert(users)
    .values({
      uid,
      passwordHash: tradePasswordHash,
      tradePasswordHash,
      nationality: "GB",
      inviteCode: `W${randomBytes(4).toString("hex")}`,
      nickname: `U${uid}`,
    })
    .returning();
  if (!user) {
    throw new Error("insert failed");
  }
  const address = await addWithdrawalAddress(db, user, {
    currency: "USDT",
    chain: "ERC20",
    address: "0x52908400098527886E0F7030069857D2E4169EE7",
  });
  if (via === "deposit") {
    const [deposit] = await db
      .insert(deposits)
      .values({
        userId: user.id,
        channel: "crypto",
        currency: "USDT",
        chain: "ERC20",
        amount: funds,
        txHash: `0x${user.id}`,
      })
      .returning();
    await confirmDeposit(db, prices, { depositId: deposit?.id ?? 0, operatorId: 1, actor: "test" });
    return { user, addressId: address?.id ?? 0 };
  }
  const key = `grant:${user.id}`;
  await postEntry(db, {
    idempotencyKey: key,
    kind: "test.grant",
    reference: { type: "test", id: key },
    postings: [
      { account: { system: "deposit_clearing:test", book: "real", currency: "USDT" }, amount: `-${funds}` },
      { account: { userId: user.id, book: "real", wallet: "exchange", currency: "USDT" }, amount: funds },
    ],
  });
  return { user, addressId: address?.id ?? 0 };
}

const request = (addressId: number, amount = "100") => ({
  method: "crypto" as const,
  currency: "USDT",
  address_id: addressId,
  amount,
  trade_password: "123456",
  google_code: undefined,
});

async function balance(userId: number) {
  const row = (await getUserBalances(db, userId, "real")).find(
    (b) => b.wallet === "exchange" && b.currency === "USDT",
  );
  return {
    available: new MoneyDecimal(row?.available ?? 0).toFixed(),
    held: new MoneyDecimal(row?.held ?? 0).toFixed(),
  };
}

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe("the withdrawal window, 12:00 to 24:00 Hong Kong time (UTC+8)", () => {
  const at = (iso: string) => new Date(iso);
  const outside = translate("en", "errors.WITHDRAW_OUTSIDE_WINDOW", { start: 12, end: 24 });

  it("refuses before noon and from midnight, accepts from noon to 23:59", async () => {
    expect(outside).toBe("Withdrawals are accepted from 12:00 to 24:00 Hong Kong time");
    const { user, addressId } = await fundedUser("1000");
    const cases: [string, boolean][] = [
      ["2025-06-02T03:59:00Z", false], // 11:59 HKT
      ["2025-06-02T03:59:59Z", false], // 11:59:59 HKT
      ["2025-06-02T04:00:00Z", true], // 12:00 HKT
      ["2025-06-02T15:59:00Z", true], // 23:59 HKT
      ["2025-06-02T16:00:00Z", false], // 00:00 HKT the next day
      ["2025-06-02T20:30:00Z", false], // 04:30 HKT
    ];
    for (const [instant, open] of cases) {
      expect((await getWithdrawalTerms(db, user, at(instant))).windowOpen, instant).toBe(open);
      const attempt = applyWithdrawal(db, prices, user, request(addressId), at(instant));
      if (open) {
        await expect(attempt, instant).resolves.toMatchObject({ status: "pending" });
      } else {
        const error = await refusal(attempt);
        expect([error.code, error.params], instant).toEqual([
          "WITHDRAW_OUTSIDE_WINDOW",
          { start: 12, end: 24 },
        ]);
        expect(translate("en", `errors.${error.code}`, error.params)).toBe(outside);
      }
    }
    expect(await balance(user.id)).toEqual({ available: "800", held: "200" });
  });

  it("follows an operator's window, in the policy's time zone", async () => {
    await setPolicy(db, "funding.withdraw.window", { start: 9, end: 17, timeZone: "Asia/Hong_Kong" }, "test");
    const { user, addressId } = await fundedUser("500");
    const error = await refusal(
      applyWithdrawal(db, prices, user, request(addressId), at("2025-06-02T09:00:00Z")),
    );
    expect([error.code, error.params]).toEqual(["WITHDRAW_OUTSIDE_WINDOW", { start: 9, end: 17 }]);
    expect(translate("en", `errors.${error.code}`, error.params)).toBe(
      "Withdrawals are accepted from 9:00 to 17:00 Hong Kong time",
    );
    await expect(
      applyWithdrawal(db, prices, user, request(addressId), at("2025-06-02T01:00:00Z")),
    ).resolves.toMatchObject({ status: "pending" });
    await setPolicy(
      db,
      "funding.withdraw.window",
      { start: 12, end: 24, timeZone: "Asia/Hong_Kong" },
      "test",
    );
  });
});

// 50 scrypt checks of the trade password at once: allow for a busy machine.
describe("concurrent applications", { timeout: 90_000 }, () => {
  // These tests race applications on the balance and the daily count, so as many as possible must
  // reach those checks at once: the trade password's attempt limit (at most that many checks run at
  // once and the others wait their turn, see identity/secret-attempts.ts) is raised to its highest
  // allowed value here.
  beforeEach(async () => {
    await setPolicy(db, "security.tradePassword.maxFailures", 50, "test");
  });

  it("holds exactly 3 of 50 simultaneous applications when the balance covers 3", async () => {
    await setPolicy(db, "funding.withdraw.perDay", 100, "test");
    await setPolicy(db, "funding.withdraw.window", { start: 0, end: 24, timeZone: "Asia/Hong_Kong" }, "test");
    const { user, addressId } = await fundedUser("300", "deposit");
    const due = await refusal(applyWithdrawal(db, prices, user, request(addressId)));
    expect([due.code, due.params]).toEqual([
      "WITHDRAW_TURNOVER_REQUIRED",
      { required: "270.00", done: "0.00", ratio: "90" },
    ]);
    await setPolicy(db, "funding.withdraw.turnoverRatio", "0", "test");
    expect((await getWithdrawalTerms(db, user)).turnover).toMatchObject({
      ratio: "0",
      required: "0.00",
      met: true,
    });
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, () => applyWithdrawal(db, prices, user, request(addressId))),
    );
    const accepted = results.filter((r) => r.status === "fulfilled");
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    expect(accepted).toHaveLength(3);
    expect(refused).toHaveLength(47);
    for (const r of refused) {
      expect(r.reason).toBeInstanceOf(AppError);
      expect((r.reason as AppError).code).toBe("INSUFFICIENT_BALANCE");
    }
    const rows = await db.select().from(withdrawals).where(eq(withdrawals.userId, user.id));
    expect(rows.map((r) => r.status)).toEqual(["pending", "pending", "pending"]);
    expect(await balance(user.id)).toEqual({ available: "0", held: "300" });
    const report = await reconcileLedger(db);
    expect([report.mismatchedAccounts, report.unbalancedCurrencies, report.unbalancedEntries]).toEqual([
      [],
      [],
      [],
    ]);
    expect(report.ok).toBe(true);
  });

  it("never lets simultaneous applications pass the daily limit", async () => {
    await setPolicy(db, "funding.withdraw.perDay", 2, "test");
    const { user, addressId } = await fundedUser("5000");
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, () => applyWithdrawal(db, prices, user, request(addressId))),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(2);
    for (const r of results.filter((x): x is PromiseRejectedResult => x.status === "rejected")) {
      expect([(r.reason as AppError).code, (r.reason as AppError).params]).toEqual([
        "WITHDRAW_DAILY_LIMIT",
        { count: 2 },
      ]);
    }
    expect(await balance(user.id)).toEqual({ available: "4800", held: "200" });
    expect((await reconcileLedger(db)).ok).toBe(true);
  });
});
