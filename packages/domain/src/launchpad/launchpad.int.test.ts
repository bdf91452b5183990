import { randomBytes } from "node:crypto";
import type { TLaunchpadOfferingInput } from "@northstar/shared/contracts/launchpad";
import { translate } from "@northstar/shared/i18n";
import { MoneyDecimal } from "@northstar/shared/money";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createDb, type Db } from "../db/client.ts";
import { AppError } from "../errors.ts";
import type { User } from "../identity/index.ts";
import { getUserBalances, reconcileLedger } from "../ledger/index.ts";
import { listInstruments } from "../markets/index.ts";
import { setPolicy } from "../policy/index.ts";
import { seedDatabase } from "../setup/index.ts";
import { getSpotTerms } from "../spot/index.ts";
import { createTrader } from "../spot/testing.ts";
import { createTestDatabase } from "../test-support/index.ts";
import {
  allocateOffering,
  createOffering,
  failIssuance,
  listDueOfferings,
  listOfferingSubscriptions,
  listUserSubscriptions,
  rejectSubscription,
  releaseUnlocked,
  subscribe,
} from "./index.ts";

/** New-coin subscription against a real database; instants are arguments (a test clock). */
let db: Db;
let teardown: () => Promise<void>;
beforeAll(async () => {
  const database = await createTestDatabase();
  // Room for the close-race test: a blocker, its subscribers and the allocation at once.
  const conn = createDb(database.url, { max: 20 });
  conn.pool.on("error", () => {});
  db = conn.db;
  await seedDatabase(db);
  teardown = async () => {
    await conn.close();
    await database.drop();
  };
});
afterAll(async () => {
  await teardown?.();
});

const at = (iso: string) => new Date(iso);
const OPEN = at("2026-07-01T12:00:00Z");
const CLOSED = at("2026-07-08T00:00:00Z");

/** A user with `funds` USDT in the exchange wallet. */
const fundedUser = (funds: string): Promise<User> => createTrader(db, { USDT: funds });

const offering = (over: Partial<TLaunchpadOfferingInput> = {}) =>
  createOffering(
    db,
    {
      coin: `N${randomBytes(2).toString("hex").toUpperCase()}`,
      name: "New coin",
      pay_currency: "USDT",
      issue_price: "0.6",
      subscribe_price: "0.5",
      total_quantity: "1000",
      min_quantity: "10",
      max_quantity: "1000",
      starts_at: at("2026-07-01T00:00:00Z"),
      ends_at: at("2026-07-07T00:00:00Z"),
      lock_days: 30,
      listing_day: "2026-07-10",
      circulation: "100000000",
      ...over,
    },
    "test",
  );

async function balance(userId: number, currency: string) {
  const row = (await getUserBalances(db, userId, "real")).find(
    (b) => b.wallet === "exchange" && b.currency === currency,
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

describe("new-coin subscription", () => {
  it("refuses outside the window, outside the quantity range and a second subscription; nothing frozen", async () => {
    const o = await offering();
    const u = await fundedUser("1000");
    const sub = (q: string, when = OPEN) => subscribe(db, u, { offering_id: o.id, quantity: q }, when);
    expect((await refusal(sub("100", at("2026-06-30T23:59:59Z")))).code).toBe("LAUNCHPAD_NOT_OPEN");
    expect((await refusal(sub("100", at("2026-07-07T00:00:00Z")))).code).toBe("LAUNCHPAD_NOT_OPEN");
    const range = await refusal(sub("9.99"));
    expect(translate("en", `errors.${range.code}`, range.params)).toBe(
      "The quantity must be between 10 and 1000",
    );
    expect((await refusal(sub("5000"))).code).toBe("LAUNCHPAD_QUANTITY_RANGE");
    expect((await refusal(sub("2001"))).code).toBe("LAUNCHPAD_QUANTITY_RANGE");
    // Finer than the 8 decimals the coin is held to once listed: refused as such, naming the field.
    const fine = await refusal(sub("100.123456789"));
    expect([fine.code, fine.params, fine.field]).toEqual(["AMOUNT_TOO_PRECISE", { decimals: 8 }, "quantity"]);
    expect(await balance(u.id, "USDT")).toEqual({ available: "1000", held: "0" });
    await sub("100");
    expect((await refusal(sub("100"))).code).toBe("LAUNCHPAD_ALREADY_SUBSCRIBED");
    expect(await balance(u.id, "USDT")).toEqual({ available: "950", held: "50" });
    const poor = await fundedUser("1");
    expect((await refusal(subscribe(db, poor, { offering_id: o.id, quantity: "10" }, OPEN))).code).toBe(
      "INSUFFICIENT_BALANCE",
    );
    expect((await listUserSubscriptions(db, poor.id, 1, 20)).length).toBe(0);
  });

  it("allocates pro rata when oversubscribed, never more than the total, charges the fee on what passed and refunds the rest exactly", async () => {
    await setPolicy(db, "launchpad.feeRate", "0.01", "test");
    try {
      const o = await offering();
      const [a, b, c] = await Promise.all([fundedUser("1000"), fundedUser("1000"), fundedUser("1000")]);
      for (const [u, q] of [
        [a, "300"],
        [b, "500"],
        [c, "700"],
      ] as const) {
        await subscribe(db, u as User, { offering_id: o.id, quantity: q }, OPEN);
      }
      expect((await refusal(allocateOffering(db, o.id, "test", at("2026-07-06T23:00:00Z")))).code).toBe(
        "LAUNCHPAD_NOT_CLOSED",
      );
      const result = await allocateOffering(db, o.id, "test", CLOSED);
      expect(result).toEqual({ subscriptions: 3, requested: "1500", allocated: "999.99999999" });
      expect((await refusal(allocateOffering(db, o.id, "test", CLOSED))).code).toBe("ALREADY_REVIEWED");
      // a: 200 passed, cost 100, fee 1, refund 50 - 1 = 49 of the 150 frozen
      expect(await balance(a.id, "USDT")).toEqual({ available: "899", held: "0" });
      expect(await balance(a.id, o.coin)).toEqual({ available: "0", held: "200" });
      // USDT holds 6 decimals: what passed costs is rounded up to them, the fee down, the refund is
      // the exact rest. b: 333.33333333 passed, cost 166.666666665 → 166.666667, fee 1.666666,
      // refund 250 − 166.666667 − 1.666666 = 81.666667
      expect(await balance(b.id, "USDT")).toEqual({ available: "831.666667", held: "0" });
      expect(await balance(b.id, o.coin)).toEqual({ available: "0", held: "333.33333333" });
      // c: 466.66666666 passed, cost 233.33333333 → 233.333334, fee 2.333333, refund 114.333333
      expect(await balance(c.id, "USDT")).toEqual({ available: "764.333333", held: "0" });
      const [record] = await listUserSubscriptions(db, c.id, 1, 20);
      expect(record).toMatchObject({
        status: "passed",
        quantity: "700",
        passedQuantity: "466.66666666",
        remainingQuantity: "233.33333334",
        subscribedAmount: "350",
        frozen: "0",
        fee: "2.333333",
        refunded: "114.333333",
        unlocked: false,
      });
      // The lock-up ends 30 days after the close: released once, even when the job runs twice.
      expect(await releaseUnlocked(db, at("2026-08-06T00:00:00Z"))).toEqual({ released: 0 });
      await Promise.all([
        releaseUnlocked(db, at("2026-08-07T00:00:00Z")),
        releaseUnlocked(db, at("2026-08-07T00:00:00Z")),
      ]);
      await releaseUnlocked(db, at("2026-08-08T00:00:00Z"));
      expect(await balance(a.id, o.coin)).toEqual({ available: "200", held: "0" });
      expect(await balance(c.id, o.coin)).toEqual({ available: "466.66666666", held: "0" });
      expect((await reconcileLedger(db)).ok).toBe(true);
    } finally {
      await setPolicy(db, "launchpad.feeRate", "0", "test");
    }
  });

  it("a subscription that gets nothing is sold out and refunded in full", async () => {
    const o = await offering({ total_quantity: "0.00000002", min_quantity: "1", max_quantity: "10" });
    const users3 = await Promise.all([fundedUser("100"), fundedUser("100"), fundedUser("100")]);
    for (const u of users3) {
      await subscribe(db, u, { offering_id: o.id, quantity: "1" }, OPEN);
    }
    await allocateOffering(db, o.id, "test", CLOSED);
    for (const u of users3) {
      const [r] = await listUserSubscriptions(db, u.id, 1, 20);
      expect(r).toMatchObject({ status: "sold_out", passedQuantity: "0", refunded: "0.5" });
      expect(await balance(u.id, "USDT")).toEqual({ available: "100", held: "0" });
    }
    expect((await reconcileLedger(db)).ok).toBe(true);
  });

  it("a failed issuance refunds everything; the records show the reason", async () => {
    const o = await offering();
    const u = await fundedUser("500");
    await subscribe(db, u, { offering_id: o.id, quantity: "400" }, OPEN);
    expect(await balance(u.id, "USDT")).toEqual({ available: "300", held: "200" });
    await failIssuance(db, o.id, "project withdrawn", "test");
    expect(await balance(u.id, "USDT")).toEqual({ available: "500", held: "0" });
    const [r] = await listUserSubscriptions(db, u.id, 1, 20);
    expect(r).toMatchObject({ status: "refunded", failReason: "project withdrawn", refunded: "200" });
    expect((await refusal(allocateOffering(db, o.id, "test", CLOSED))).code).toBe("ALREADY_REVIEWED");
    expect((await reconcileLedger(db)).ok).toBe(true);
  });

  it("on its listing day an allocated coin gets a spot market, once; a failed issuance never lists", async () => {
    const o = await offering({ issue_price: "0.6" });
    const failed = await offering();
    const u = await fundedUser("1000");
    await subscribe(db, u, { offering_id: o.id, quantity: "100" }, OPEN);
    await subscribe(db, u, { offering_id: failed.id, quantity: "100" }, OPEN);
    await allocateOffering(db, o.id, "test", CLOSED);
    await failIssuance(db, failed.id, "project withdrawn", "test");
    const symbol = `${o.coin}USDT`;
    // The day before the listing day (2026-07-10): nothing.
    expect(await listDueOfferings(db, at("2026-07-09T23:59:59Z"))).toEqual([]);
    await expect(getSpotTerms(db, symbol)).rejects.toMatchObject({ code: "INSTRUMENT_NOT_FOUND" });
    // The job delivered twice at once on the day: listed once.
    const runs = await Promise.all([
      listDueOfferings(db, at("2026-07-10T00:10:00Z")),
      listDueOfferings(db, at("2026-07-10T00:10:00Z")),
    ]);
    // (Offerings allocated by the tests above list on the same day.)
    expect(runs.flat().filter((listed) => listed === symbol)).toEqual([symbol]);
    expect(runs.flat()).not.toContain(`${failed.coin}USDT`);
    expect(await listDueOfferings(db, at("2026-07-11T00:00:00Z"))).toEqual([]);
    const terms = await getSpotTerms(db, symbol);
    expect(terms).toMatchObject({ base: o.coin, quote: "USDT", tickSize: "0.0001", baseDecimals: 8 });
    const spot = await listInstruments(db, { kind: "spot", search: o.coin });
    expect(spot.items.map((i) => [i.symbol, i.referencePrice])).toEqual([[symbol, "0.6"]]);
    expect((await listInstruments(db, { search: failed.coin, includeDisabled: true })).total).toBe(0);
  });

  it("an operator rejects one subscription: released in full once, shown with the reason, left out of the allocation", async () => {
    const o = await offering({ total_quantity: "100" });
    const [kept, rejected] = await Promise.all([fundedUser("1000"), fundedUser("1000")]);
    await subscribe(db, kept, { offering_id: o.id, quantity: "100" }, OPEN);
    await subscribe(db, rejected, { offering_id: o.id, quantity: "100" }, OPEN);
    const [, target] = await listOfferingSubscriptions(db, o.id, 1, 20);
    expect(target?.userId).toBe(rejected.id);
    const reject = () =>
      rejectSubscription(db, {
        subscriptionId: target?.id ?? 0,
        reason: "duplicate identity",
        actor: "test",
      });
    const results = await Promise.allSettled(Array.from({ length: 10 }, reject));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(results.flatMap((r) => (r.status === "rejected" ? [(r.reason as AppError).code] : []))).toEqual(
      Array(9).fill("ALREADY_REVIEWED"),
    );
    expect(await balance(rejected.id, "USDT")).toEqual({ available: "1000", held: "0" });
    const [record] = await listUserSubscriptions(db, rejected.id, 1, 20);
    expect(record).toMatchObject({
      status: "failed",
      rejectReason: "duplicate identity",
      refunded: "50",
      frozen: "0",
    });
    // Without the rejected one the total suffices: the other gets all it asked.
    await allocateOffering(db, o.id, "test", CLOSED);
    expect(await balance(kept.id, o.coin)).toEqual({ available: "0", held: "100" });
    expect(await balance(rejected.id, o.coin)).toEqual({ available: "0", held: "0" });
    expect((await refusal(reject())).code).toBe("ALREADY_REVIEWED");
    expect((await reconcileLedger(db)).ok).toBe(true);
  });

  it("a price finer than the pay currency: the frozen amount and the cost are rounded up to its decimals, exact to the last one; never a fault", async () => {
    const o = await offering({
      subscribe_price: "0.12345678901",
      total_quantity: "1.5",
      min_quantity: "1",
      max_quantity: "10",
    });
    const [u1, u2] = await Promise.all([fundedUser("10"), fundedUser("10")]);
    // 1.00000001 × 0.12345678901 = 0.1234567902445678901 (19 decimals): USDT holds 6, frozen 0.123457.
    const first = await subscribe(db, u1, { offering_id: o.id, quantity: "1.00000001" }, OPEN);
    expect(first).toMatchObject({ quantity: "1.00000001", frozen: "0.123457", subscribedAmount: "0.123457" });
    expect(await balance(u1.id, "USDT")).toEqual({ available: "9.876543", held: "0.123457" });
    await subscribe(db, u2, { offering_id: o.id, quantity: "1" }, OPEN);
    expect(await balance(u2.id, "USDT")).toEqual({ available: "9.876543", held: "0.123457" });
    // Oversubscribed: 0.75 and 0.74999999 pass; each cost rounded up to 0.092593, the rest returns.
    await allocateOffering(db, o.id, "test", CLOSED);
    expect(await balance(u1.id, o.coin)).toEqual({ available: "0", held: "0.75" });
    expect(await balance(u2.id, o.coin)).toEqual({ available: "0", held: "0.74999999" });
    expect(await balance(u1.id, "USDT")).toEqual({ available: "9.907407", held: "0" });
    expect(await balance(u2.id, "USDT")).toEqual({ available: "9.907407", held: "0" });
    const [record] = await listUserSubscriptions(db, u1.id, 1, 20);
    expect(record).toMatchObject({ status: "passed", passedQuantity: "0.75", refunded: "0.030864" });
    expect((await reconcileLedger(db)).ok).toBe(true);
  });

  it("subscriptions racing the close are either in the allocation or refused: none stays frozen on an allocated offering", async () => {
    const o = await offering({ total_quantity: "1000", min_quantity: "10", max_quantity: "100" });
    const racers = await Promise.all(Array.from({ length: 6 }, () => fundedUser("100")));
    const ids = racers.map((u) => u.id);
    // A separate transaction holds the racers' USDT balances: each subscription has read the
    // offering (open) and waits to freeze its funds, as one in its last milliseconds would.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let locked = () => {};
    const lockTaken = new Promise<void>((resolve) => {
      locked = resolve;
    });
    const blocker = db.transaction(async (tx) => {
      await tx.execute(
        sql`select id from ledger_accounts where user_id in ${ids} and currency = 'USDT' order by id for update`,
      );
      locked();
      await held;
    });
    await lockTaken;
    const waiting = async () => {
      const r = await db.execute<{ n: number }>(
        sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
      );
      return Number(r.rows[0]?.n ?? 0);
    };
    const subscriptions = racers.map((u) =>
      subscribe(db, u, { offering_id: o.id, quantity: "10" }, at("2026-07-06T23:59:59.800Z")).then(
        () => "subscribed",
        (e: unknown) => (e as AppError).code,
      ),
    );
    await vi.waitFor(async () => expect(await waiting()).toBe(racers.length), {
      timeout: 30_000,
      interval: 20,
    });
    // The operator allocates at the close while they wait.
    let settled = false;
    const allocation = allocateOffering(db, o.id, "test", CLOSED).finally(() => {
      settled = true;
    });
    await vi.waitFor(async () => expect(settled || (await waiting()) === racers.length + 1).toBe(true), {
      timeout: 30_000,
      interval: 20,
    });
    release();
    await blocker;
    const outcomes = await Promise.all(subscriptions);
    const result = await allocation;
    const stillFrozen = await db.execute<{ n: number }>(
      sql`select count(*)::int as n from launchpad_subscriptions where offering_id = ${o.id} and status = 'reviewing'`,
    );
    expect(stillFrozen.rows[0]?.n).toBe(0);
    const subscribed = outcomes.filter((x) => x === "subscribed").length;
    expect(outcomes.filter((x) => x !== "subscribed")).toEqual(
      Array(racers.length - subscribed).fill("LAUNCHPAD_NOT_OPEN"),
    );
    expect(result.subscriptions).toBe(subscribed);
    for (const u of racers) {
      const usdt = await balance(u.id, "USDT");
      expect(usdt.held).toBe("0");
      const coins = await balance(u.id, o.coin);
      expect([usdt.available, coins.held]).toEqual(
        outcomes[racers.indexOf(u)] === "subscribed" ? ["95", "10"] : ["100", "0"],
      );
    }
    expect((await refusal(allocateOffering(db, o.id, "test", CLOSED))).code).toBe("ALREADY_REVIEWED");
    // One that reads the offering after the allocation is refused, whatever its clock says.
    const late = await fundedUser("100");
    const lateTry = subscribe(
      db,
      late,
      { offering_id: o.id, quantity: "10" },
      at("2026-07-06T23:59:59.900Z"),
    );
    expect((await refusal(lateTry)).code).toBe("LAUNCHPAD_NOT_OPEN");
    expect(await balance(late.id, "USDT")).toEqual({ available: "100", held: "0" });
    expect((await reconcileLedger(db)).ok).toBe(true);
  });

  it("an offering's quantities finer than the coin's decimals or an unknown pay currency are refused by field", async () => {
    const fine = await refusal(offering({ min_quantity: "0.000000001" }));
    expect([fine.code, fine.field]).toEqual(["AMOUNT_INVALID", "min_quantity"]);
    const unknown = await refusal(offering({ pay_currency: "NOPE" }));
    expect([unknown.code, unknown.field]).toEqual(["FIELD_INVALID", "pay_currency"]);
  });
});
