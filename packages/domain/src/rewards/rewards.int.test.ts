import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type Db } from "../db/client.ts";
import type { User } from "../identity/index.ts";
import { reconcileLedger } from "../ledger/index.ts";
import { seedDatabase } from "../setup/index.ts";
import { balanceOf, createTrader } from "../spot/testing.ts";
import { createTestDatabase } from "../test-support/index.ts";
import { claimSignIn, fundMarketingBudget, getMarketingBudget, getSignInStatus } from "./index.ts";

/*
 * The 7-day sign-in on a test clock: one claim per calendar day in the user's time zone, the cycle
 * restarting after a missed day, rewards from the marketing budget and a refusal when it runs out.
 */
let db: Db;
let close: () => Promise<void>;

beforeAll(async () => {
  const database = await createTestDatabase();
  const conn = createDb(database.url, { max: 30 });
  await seedDatabase(conn.db);
  db = conn.db;
  close = async () => {
    await conn.close();
    await database.drop();
  };
});
afterAll(async () => {
  await close?.();
});

const usdt = async (user: User) => (await balanceOf(db, user, "USDT")).available;
const budget = async () => (await getMarketingBudget(db)).find((b) => b.currency === "USDT");
// Default rewards per day: 0.1, 0.1, 0.2, 0.2, 0.3, 0.5, 1 USDT.

describe("the 7-day sign-in", () => {
  it("says it is paused on a fresh platform whose budget is not funded, instead of offering a claim", async () => {
    const user = await createTrader(db, {});
    const at = new Date("2026-06-01T02:00:00Z");
    expect(await getSignInStatus(db, user.id, undefined, at)).toMatchObject({
      paused: true,
      signedToday: false,
    });
    await expect(claimSignIn(db, user, undefined, at)).rejects.toMatchObject({
      code: "SIGN_IN_BUDGET_EXHAUSTED",
    });
  });

  it("pays once per day (20 claims at once too), restarts after a missed day, and a new cycle after day 7", async () => {
    await fundMarketingBudget(db, { currency: "USDT", amount: "100", actor: "test", key: "fund-1" });
    await fundMarketingBudget(db, { currency: "USDT", amount: "100", actor: "test", key: "fund-1" });
    expect(await budget()).toMatchObject({ balance: "100" });
    await expect(
      fundMarketingBudget(db, { currency: "USDT", amount: "-1", actor: "test" }),
    ).rejects.toMatchObject({
      code: "AMOUNT_INVALID",
    });
    const user = await createTrader(db, {});
    const day = (d: number, hour = 10) => new Date(Date.UTC(2026, 5, d, hour - 8)); // Hong Kong time (policy default)

    const claims = await Promise.allSettled(
      Array.from({ length: 20 }, () => claimSignIn(db, user, undefined, day(1))),
    );
    expect(claims.filter((c) => c.status === "fulfilled")).toHaveLength(1);
    for (const c of claims.filter((c) => c.status === "rejected")) {
      expect((c as PromiseRejectedResult).reason).toMatchObject({ code: "SIGN_IN_ALREADY_CLAIMED" });
    }
    expect(await usdt(user)).toBe("0.1");
    // Again at 23:59 the same day (Hong Kong): refused, nothing moves.
    await expect(claimSignIn(db, user, undefined, day(1, 23.99))).rejects.toMatchObject({
      code: "SIGN_IN_ALREADY_CLAIMED",
    });
    expect(await usdt(user)).toBe("0.1");

    for (let d = 2; d <= 7; d++) {
      expect(await claimSignIn(db, user, undefined, day(d))).toMatchObject({ day: d });
    }
    // 0.1 + 0.1 + 0.2 + 0.2 + 0.3 + 0.5 + 1 = 2.4
    expect(await usdt(user)).toBe("2.4");
    const status = await getSignInStatus(db, user.id, undefined, day(7));
    expect(status).toMatchObject({ signedToday: true, day: 7, timeZone: "Asia/Hong_Kong", paused: false });
    expect(status.days.every((d) => d.signed)).toBe(true);
    // Day 8 starts a new cycle at day 1; then the 10th is missed: the 11th restarts at day 1.
    expect(await claimSignIn(db, user, undefined, day(8))).toMatchObject({ day: 1 });
    expect(await claimSignIn(db, user, undefined, day(9))).toMatchObject({ day: 2 });
    const missed = await getSignInStatus(db, user.id, undefined, day(11));
    expect(missed).toMatchObject({ signedToday: false, day: 1 });
    expect(missed.days.some((d) => d.signed)).toBe(false);
    expect(await claimSignIn(db, user, undefined, day(11))).toMatchObject({ day: 1, amount: "0.1" });
    expect(await usdt(user)).toBe("2.7");
    expect(await budget()).toMatchObject({ balance: "97.3", paid: "2.7", claims: 10 });
    expect((await reconcileLedger(db)).ok).toBe(true);
  });

  it("counts the day in the user's time zone, fixed at the first claim", async () => {
    await expect(claimSignIn(db, await createTrader(db, {}), "Mars/Olympus")).rejects.toMatchObject({
      code: "TIME_ZONE_INVALID",
    });
    const tokyo = await createTrader(db, {});
    const london = await createTrader(db, {});
    // 14:30 UTC is 23:30 in Tokyo; 15:30 UTC is 00:30 the next day there, the same day in London.
    expect(await claimSignIn(db, tokyo, "Asia/Tokyo", new Date("2026-07-01T14:30:00Z"))).toMatchObject({
      date: "2026-07-01",
      day: 1,
    });
    expect(await claimSignIn(db, tokyo, "Asia/Tokyo", new Date("2026-07-01T15:30:00Z"))).toMatchObject({
      date: "2026-07-02",
      day: 2,
    });
    await claimSignIn(db, london, "Europe/London", new Date("2026-07-01T14:30:00Z"));
    await expect(
      claimSignIn(db, london, "Europe/London", new Date("2026-07-01T15:30:00Z")),
    ).rejects.toMatchObject({ code: "SIGN_IN_ALREADY_CLAIMED" });
    // A browser claiming from another zone later changes nothing: the day is still London's.
    await expect(
      claimSignIn(db, london, "Pacific/Kiritimati", new Date("2026-07-01T15:30:00Z")),
    ).rejects.toMatchObject({ code: "SIGN_IN_ALREADY_CLAIMED" });
    // A demo account is refused.
    await expect(claimSignIn(db, await createTrader(db, {}, "demo"))).rejects.toMatchObject({
      code: "REAL_ACCOUNT_REQUIRED",
    });
  });

  it("refuses a claim when the budget cannot pay it, and moves nothing", async () => {
    // Drain the budget to 0.05 USDT, less than a day's 0.1.
    const left = (await budget())?.balance ?? "0";
    await db.execute(
      sql`update ledger_accounts set balance = 0.05 where system_code = 'marketing_budget' and currency = 'USDT'`,
    );
    const user = await createTrader(db, {});
    await expect(claimSignIn(db, user, "UTC", new Date("2026-08-01T10:00:00Z"))).rejects.toMatchObject({
      code: "SIGN_IN_BUDGET_EXHAUSTED",
    });
    expect(await usdt(user)).toBe("0");
    expect(await getSignInStatus(db, user.id, "UTC", new Date("2026-08-01T10:00:00Z"))).toMatchObject({
      signedToday: false,
      day: 1,
      paused: true,
    });
    await db.execute(
      sql`update ledger_accounts set balance = ${left} where system_code = 'marketing_budget' and currency = 'USDT'`,
    );
    expect(await claimSignIn(db, user, "UTC", new Date("2026-08-01T10:00:00Z"))).toMatchObject({ day: 1 });
    expect((await reconcileLedger(db)).ok).toBe(true);
  });
});
