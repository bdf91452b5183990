import { MoneyDecimal } from "@northstar/shared/money";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type Db } from "../db/client.ts";
import type { User } from "../identity/index.ts";
import { reconcileLedger } from "../ledger/index.ts";
import { createFixedPriceProvider } from "../markets/index.ts";
import { setPolicy } from "../policy/index.ts";
import { seedDatabase } from "../setup/index.ts";
import { createTrader } from "../spot/testing.ts";
import { createTestDatabase } from "../test-support/index.ts";
import { addDays } from "./days.ts";
import { buyProduct, createProduct, publishRate, runDailyYield } from "./index.ts";

/**
 * The held ledger check: a year of simulated days over 1,000 orders of a one-year range product.
 * The job runs at monthly checkpoints (each run catches up the days since the last one) and after
 * maturity; the yield paid through the ledger equals the sum of the published rates × principal
 * exactly (principals have 2 decimals and rates 4, so no day is rounded), every principal comes
 * back, and the ledger reconciles.
 */
let db: Db;
let teardown: () => Promise<void>;
beforeAll(async () => {
  const database = await createTestDatabase();
  const conn = createDb(database.url, { max: 10 });
  conn.pool.on("error", () => {});
  db = conn.db;
  await seedDatabase(db);
  // The buyers have not taken the risk questionnaire; an unassessed user's per-order cap is raised
  // for this custody test (the cap has its own test in earn.int.test.ts).
  await setPolicy(
    db,
    "kyc.risk.maxPerOrderUsdt",
    { notAssessed: "1000000", conservative: "10000", balanced: "100000", aggressive: "1000000" },
    "test",
  );
  teardown = async () => {
    await conn.close();
    await database.drop();
  };
});
afterAll(async () => {
  await teardown?.();
});

const ORDERS = 1000;
const USERS = 10;
const START = "2026-01-01";

/** A user with `funds` USDT in the exchange wallet. */
const fundedUser = (funds: string): Promise<User> => createTrader(db, { USDT: funds });

describe("a year of daily yield over 1,000 orders", () => {
  it("pays exactly the published rates × principal, once per order and day, then every principal", async () => {
    const product = await createProduct(
      db,
      {
        family: "etf",
        name: "ETF year",
        currency: "USDT",
        cycle_days: 365,
        rate_min: "0.003",
        rate_max: "0.005",
        min_amount: "100",
        max_amount: "100000",
        user_limit: "100000000",
        user_count: 1000,
        capacity: "100000000",
        risk_level: "conservative",
        redemption_rule: "remaining_days",
      },
      "test",
    );
    // Rates published before the year starts: 0.3000% to 0.4999%, a deterministic sequence.
    const before = new Date(`${START}T00:00:00Z`);
    const rates: string[] = [];
    for (let k = 1; k <= 365; k++) {
      const rate = new MoneyDecimal(30 + ((k * 7919) % 20)).dividedBy(10_000).toFixed();
      rates.push(rate);
      await publishRate(db, { productId: product.id, day: addDays(START, k), rate, actor: "test" }, before);
    }
    const buyers = await Promise.all(Array.from({ length: USERS }, () => fundedUser("10000000")));
    const prices = createFixedPriceProvider();
    const bought = new Date(`${START}T09:00:00Z`);
    let principal = new MoneyDecimal(0);
    for (let i = 0; i < ORDERS; i++) {
      const amount = new MoneyDecimal(100).plus(new MoneyDecimal(i * 731).dividedBy(100)).toFixed();
      principal = principal.plus(amount);
      await buyProduct(db, prices, buyers[i % USERS] as User, { product_id: product.id, amount }, bought);
    }
    const rateSum = rates.reduce((s, r) => s.plus(r), new MoneyDecimal(0));
    const expected = principal.times(rateSum);

    // Monthly checkpoints, one of them delivered twice, then past maturity.
    for (let month = 1; month <= 12; month++) {
      const at = new Date(Date.UTC(2026, month, 1, 0, 30));
      await runDailyYield(db, at);
      if (month === 6) {
        await runDailyYield(db, at);
      }
    }
    await runDailyYield(db, new Date("2027-01-03T00:00:00Z"));

    const paid = await db.execute<{ total: string; entries: number }>(sql`
      select coalesce(sum(p.amount), 0)::text as total, count(*)::int as entries
      from postings p join ledger_accounts a on a.id = p.account_id
      join journal_entries j on j.id = p.entry_id
      where a.user_id is not null and j.kind = 'earn.yield'`);
    expect(paid.rows[0]?.entries).toBe(ORDERS * 365);
    expect(new MoneyDecimal(paid.rows[0]?.total ?? 0).toFixed(2)).toBe(expected.toFixed(2));
    expect(new MoneyDecimal(paid.rows[0]?.total ?? 0).toFixed()).toBe(expected.toFixed());
    const left = await db.execute<{ status: string; n: number }>(
      sql`select status, count(*)::int as n from earn_orders group by status order by status`,
    );
    expect(left.rows).toEqual([{ status: "completed", n: ORDERS }]);
    const custody = await db.execute<{ balance: string }>(
      sql`select balance::text from ledger_accounts where system_code = 'earn_custody'`,
    );
    expect(new MoneyDecimal(custody.rows[0]?.balance ?? 0).isZero()).toBe(true);
    expect((await reconcileLedger(db)).ok).toBe(true);
  }, 600_000);
});
