import { randomBytes } from "node:crypto";
import { ZBuyOptionRequestSchema } from "@northstar/shared/contracts/options";
import { MoneyDecimal } from "@northstar/shared/money";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type Db } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { type User, users } from "../identity/index.ts";
import { type Book, findDustBalances, getUserBalances, postEntry, reconcileLedger } from "../ledger/index.ts";
import { clearSourceHealth, recordRunningFeed, recordSourceHealth } from "../markets/index.ts";
import { setPolicy } from "../policy/index.ts";
import { seedDatabase } from "../setup/index.ts";
import { createTestDatabase } from "../test-support/index.ts";
import { buyOption } from "./buy-option.ts";
import { getOptionOrder, listOptionOrders, optionOrderTicks } from "./list-orders.ts";
import { optionOrders } from "./options.table.ts";
import { listOptionProducts } from "./products.ts";
import { settleDueOptions, settleOption } from "./settle-option.ts";
import { OptionTickRecorder } from "./tick-recorder.ts";
import { pruneTicks, recordTicks } from "./ticks.ts";

/**
 * Buying and settling options against a real database, with the clock an argument: every instant is
 * chosen by the test, and every price is a tick the test records, as the worker would from the feed.
 */
let db: Db;
let teardown: () => Promise<void>;
beforeAll(async () => {
  const database = await createTestDatabase();
  const conn = createDb(database.url, { max: 30 });
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

/** Each test trades in its own hour, so its ticks never meet another test's. A Wednesday. */
let hour = 0;
const slot = () => new Date(Date.UTC(2026, 0, 7, 0, 0, 0) + ++hour * 3_600_000);
const at = (base: Date, ms: number) => new Date(base.getTime() + ms);

async function newUser(funds: string, kind: Book = "real"): Promise<User> {
  const uid = String(10_000_000 + Math.floor(Math.random() * 89_999_999));
  const [user] = await db
    .insert(users)
    .values({
      uid,
      kind,
      passwordHash: "x",
      nationality: "GB",
      inviteCode: `O${randomBytes(5).toString("hex")}`,
      nickname: `U${uid}`,
    })
    .returning();
  if (!user) {
    throw new Error("insert failed");
  }
  if (funds !== "0") {
    await postEntry(db, {
      idempotencyKey: `grant:${user.id}`,
      kind: "test.grant",
      reference: { type: "test", id: user.id },
      postings: [
        { account: { system: "deposit_clearing:test", book: kind, currency: "USDT" }, amount: `-${funds}` },
        { account: { userId: user.id, book: kind, wallet: "option", currency: "USDT" }, amount: funds },
      ],
    });
  }
  return user;
}

const norm = (v: string | null | undefined) => new MoneyDecimal(v ?? 0).toFixed();
async function optionBalance(userId: number, book: Book = "real") {
  const row = (await getUserBalances(db, userId, book)).find(
    (b) => b.wallet === "option" && b.currency === "USDT",
  );
  return norm(row?.available);
}
async function houseBalance(book: Book = "real") {
  const rows = await db.execute<{ balance: string }>(
    sql`select balance::text from ledger_accounts where system_code = 'options_house' and book = ${book}`,
  );
  return norm(rows.rows[0]?.balance);
}

const buy = (user: User, now: Date, input: Record<string, unknown>) =>
  buyOption(
    { db, now: () => now },
    user,
    ZBuyOptionRequestSchema.parse({
      symbol: "BTCUSDT",
      direction: "up",
      amount: "100",
      period_seconds: 60,
      ...input,
    }),
  );

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

const tick = (symbol: string, price: string, time: Date) =>
  recordTicks(db, [{ symbol, price, time: time.getTime() }]);

describe("buying an option", () => {
  it("takes the tick current at acceptance and moves exactly amount + fee to the options house", async () => {
    const t0 = slot();
    const user = await newUser("1000");
    await tick("BTCUSDT", "90000.10", at(t0, -3000));
    const [current] = await tick("BTCUSDT", "90001.25", at(t0, -400));
    // A tick after the acceptance instant is not the current one.
    await tick("BTCUSDT", "95000", at(t0, 200));
    const houseBefore = await houseBalance();

    const order = await buy(user, t0, { amount: "100", period_seconds: 60 });
    expect(order).toMatchObject({
      status: "open",
      direction: "up",
      amount: "100",
      fee: "1",
      fee_rate: "0.01",
      payout_rate: "0.82",
      purchase_price: "90001.25",
      purchase_tick_time: at(t0, -400).toISOString(),
      purchased_at: t0.toISOString(),
      expires_at: at(t0, 60_000).toISOString(),
      settlement_price: null,
      profit: null,
    });
    const [row] = await db.select().from(optionOrders).where(eq(optionOrders.id, order.id));
    expect(row?.purchaseTickId).toBe(current?.id);

    expect(await optionBalance(user.id)).toBe("899");
    expect(norm(new MoneyDecimal(await houseBalance()).minus(houseBefore).toFixed())).toBe("101");
    const postings = await db.execute<{
      kind: string;
      amount: string;
      user_id: string | null;
      system_code: string | null;
    }>(sql`
      select e.kind, p.amount::text, a.user_id, a.system_code from journal_entries e
      join postings p on p.entry_id = e.id join ledger_accounts a on a.id = p.account_id
      where e.reference_type = 'option_order' and e.reference_id = ${String(order.id)}
      order by p.id`);
    expect(
      postings.rows.map((p) => [p.kind, norm(p.amount), p.user_id === null ? p.system_code : "user"]),
    ).toEqual([
      ["option.buy", "-101", "user"],
      ["option.buy", "101", "options_house"],
    ]);
  });

  it("refuses and changes nothing: insufficient balance, closed market, outside limits, zero or negative, stale price", async () => {
    const t0 = slot();
    const user = await newUser("50");
    await tick("BTCUSDT", "90000", at(t0, -100));
    const before = await optionBalance(user.id);
    const houseBefore = await houseBalance();

    expect((await refusal(buy(user, t0, { amount: "50" }))).code).toBe("INSUFFICIENT_BALANCE");
    expect((await refusal(buy(user, t0, { amount: "9.99" }))).code).toBe("OPTION_AMOUNT_BELOW_MINIMUM");
    const above = await refusal(buy(user, t0, { amount: "20000.01" }));
    expect([above.code, above.params]).toEqual(["OPTION_AMOUNT_ABOVE_MAXIMUM", { max: "20000" }]);
    expect((await refusal(buy(user, t0, { period_seconds: 45 }))).code).toBe("OPTION_NOT_AVAILABLE");
    expect((await refusal(buy(user, t0, { symbol: "DOGEUSDT" }))).code).toBe("OPTION_NOT_AVAILABLE");
    // EURUSD trades on weekdays only: a Saturday is closed.
    const saturday = new Date("2026-01-10T12:00:00Z");
    await tick("EURUSD", "1.1", at(saturday, -100));
    expect((await refusal(buy(user, saturday, { symbol: "EURUSD", amount: "10" }))).code).toBe(
      "MARKET_CLOSED",
    );
    // The latest recorded tick is 6 s old (the policy allows 5 s): the market is paused, and says why.
    const stale = await refusal(buy(user, at(t0, 6000), { amount: "10" }));
    expect([stale.code, stale.params]).toEqual(["MARKET_PRICE_STALE", { seconds: 5 }]);
    for (const amount of ["0", "0.000", "-5"]) {
      const parsed = ZBuyOptionRequestSchema.safeParse({
        symbol: "BTCUSDT",
        direction: "up",
        amount,
        period_seconds: 60,
      });
      expect(parsed.error?.issues[0]?.message, amount).toBe("INVESTMENT_NOT_POSITIVE");
      const direct = await refusal(
        buyOption({ db, now: () => t0 }, user, {
          symbol: "BTCUSDT",
          direction: "up",
          amount,
          period_seconds: 60,
        }),
      );
      expect(direct.code).toBe("INVESTMENT_NOT_POSITIVE");
    }

    // The live source of the market has sent no new price for longer than the policy allows: paused.
    try {
      await recordRunningFeed(db, "live", false);
      await recordSourceHealth(db, [
        {
          source: "ccxt",
          label: "binance",
          staleSince: at(t0, -120_000).getTime(),
          lastSourceTime: at(t0, -120_000).getTime(),
          lastError: null,
        },
      ]);
      const paused = await refusal(buy(user, t0, { amount: "10" }));
      expect([paused.code, paused.params]).toEqual([
        "MARKET_PRICES_PAUSED",
        { source: "binance", since: `${at(t0, -120_000).toISOString().slice(0, 19).replace("T", " ")} UTC` },
      ]);
    } finally {
      await clearSourceHealth(db);
      await recordRunningFeed(db, "simulator", false);
    }

    expect(await optionBalance(user.id)).toBe(before);
    expect(await houseBalance()).toBe(houseBefore);
    expect((await listOptionOrders(db, user.id, { scope: "open", page: 1, pageSize: 20 })).total).toBe(0);
  });

  it("refuses an amount finer than USDT's 6 decimals, naming the field and the decimals, and changes nothing", async () => {
    const t0 = slot();
    const user = await newUser("1000");
    await tick("BTCUSDT", "90000", at(t0, -100));
    const houseBefore = await houseBalance();
    const fine = await refusal(buy(user, t0, { amount: "10.1234567" }));
    expect([fine.code, fine.params, fine.field]).toEqual(["AMOUNT_TOO_PRECISE", { decimals: 6 }, "amount"]);
    expect(await optionBalance(user.id)).toBe("1000");
    expect(await houseBalance()).toBe(houseBefore);
    expect((await listOptionOrders(db, user.id, { scope: "open", page: 1, pageSize: 20 })).total).toBe(0);
  });

  it("rounds the fee up and a win's profit down to USDT's decimals: no balance holds dust", async () => {
    const t0 = slot();
    const user = await newUser("1000");
    await tick("BTCUSDT", "100", at(t0, -100));
    // 10.123457 × 0.01 = 0.10123457 → the user pays 0.101235.
    const order = await buy(user, t0, { amount: "10.123457" });
    expect([order.amount, order.fee]).toEqual(["10.123457", "0.101235"]);
    expect(await optionBalance(user.id)).toBe("989.775308");
    const expiry = new Date(order.expires_at);
    await tick("BTCUSDT", "101", expiry);
    expect((await settleOption(db, order.id, at(expiry, 10))).state).toBe("settled");
    // 10.123457 × 0.82 = 8.30123474 → the user receives 8.301234 of profit.
    expect(await getOptionOrder(db, user.id, order.id)).toMatchObject({ status: "won", payout: "18.424691" });
    expect(await optionBalance(user.id)).toBe("1008.199999");
    expect((await findDustBalances(db)).filter((d) => d.userId === user.id)).toEqual([]);
  });

  it("refuses an option whose expiry falls outside its market's trading hours (into the weekend or the daily break)", async () => {
    const user = await newUser("1000");
    // EURUSD closes Friday 17:00 New York (22:00 UTC in January); XAUUSD too, and pauses 17:00–18:00 on weekdays.
    const friday = new Date("2026-01-09T21:59:00Z");
    await tick("EURUSD", "1.1", at(friday, -100));
    await tick("XAUUSD", "2650", at(friday, -100));
    const before = await optionBalance(user.id);
    for (const [symbol, seconds] of [
      ["EURUSD", 60],
      ["EURUSD", 86_400],
      ["XAUUSD", 120],
    ] as const) {
      const refused = await refusal(buy(user, friday, { symbol, amount: "10", period_seconds: seconds }));
      expect([symbol, seconds, refused.code, refused.field]).toEqual([
        symbol,
        seconds,
        "OPTION_EXPIRY_MARKET_CLOSED",
        "period_seconds",
      ]);
    }
    expect(await optionBalance(user.id)).toBe(before);
    // An expiry before the close is sold: 21:59:30 UTC.
    expect(await buy(user, friday, { symbol: "EURUSD", amount: "10", period_seconds: 30 })).toMatchObject({
      status: "open",
    });
    // Gold on a Thursday at 21:30 UTC (16:30 New York): an hour later falls into the daily break.
    const thursday = new Date("2026-01-08T21:30:00Z");
    await tick("XAUUSD", "2650", at(thursday, -100));
    const daily = await refusal(
      buy(user, thursday, { symbol: "XAUUSD", amount: "10", period_seconds: 3600 }),
    );
    expect(daily.code).toBe("OPTION_EXPIRY_MARKET_CLOSED");
    // The products say, per period, whether its expiry is in trading hours now: the form disables the others.
    const products = await listOptionProducts(db, friday);
    const eur = products.find((p) => p.symbol === "EURUSD");
    expect(eur?.periods.map((p) => [p.seconds, p.expiry_open])).toEqual([
      [30, true],
      [60, false],
      [120, false],
      [300, false],
      [3600, false],
      [86_400, false],
    ]);
  });

  it("refuses an amount above the user's risk level (the verification module's cap) and changes nothing", async () => {
    const t0 = slot();
    const user = await newUser("500");
    await tick("BTCUSDT", "90000", at(t0, -100));
    const caps = { notAssessed: "1000", conservative: "10000", balanced: "100000", aggressive: "1000000" };
    await setPolicy(db, "kyc.risk.maxPerOrderUsdt", { ...caps, notAssessed: "50" }, "test");
    try {
      const e = await refusal(buy(user, t0, { amount: "50.01" }));
      expect([e.code, e.params]).toEqual(["RISK_LIMIT_EXCEEDED", { max: "50" }]);
      expect(await optionBalance(user.id)).toBe("500");
      expect((await listOptionOrders(db, user.id, { scope: "open", page: 1, pageSize: 20 })).total).toBe(0);
      // Exactly the cap is allowed.
      await buy(user, t0, { amount: "50" });
      expect((await listOptionOrders(db, user.id, { scope: "open", page: 1, pageSize: 20 })).total).toBe(1);
    } finally {
      await setPolicy(db, "kyc.risk.maxPerOrderUsdt", caps, "test");
    }
  });

  it("trades a demo account in the demo book", async () => {
    const t0 = slot();
    const user = await newUser("500", "demo");
    await tick("BTCUSDT", "90000", at(t0, -100));
    const demoHouse = await houseBalance("demo");
    await buy(user, t0, { amount: "10", period_seconds: 30 });
    expect(await optionBalance(user.id, "demo")).toBe("489.9");
    expect(norm(new MoneyDecimal(await houseBalance("demo")).minus(demoHouse).toFixed())).toBe("10.1");
    const [row] = await db.select().from(optionOrders).where(eq(optionOrders.userId, user.id));
    expect(row?.book).toBe("demo");
  });

  it("another user's order id reaches nothing", async () => {
    const t0 = slot();
    const owner = await newUser("100");
    const other = await newUser("100");
    await tick("BTCUSDT", "90000", at(t0, -100));
    const order = await buy(owner, t0, { amount: "10" });
    expect((await getOptionOrder(db, owner.id, order.id)).id).toBe(order.id);
    expect((await refusal(getOptionOrder(db, other.id, order.id))).code).toBe("ORDER_NOT_FOUND");
    expect((await listOptionOrders(db, other.id, { scope: "open", page: 1, pageSize: 20 })).items).toEqual(
      [],
    );
  });
});

describe("settling an option with the first recorded tick at or after its expiry", () => {
  /** An order bought at t0 at 100 and priced at expiry by the ticks given (ms after the expiry). */
  async function scenario(direction: "up" | "down", afterExpiry: [number, string][], symbol = "ETHUSDT") {
    const t0 = slot();
    const user = await newUser("1000");
    await tick(symbol, "100", at(t0, -100));
    const order = await buy(user, t0, { symbol, direction, amount: "200", period_seconds: 30 });
    const expiry = at(t0, 30_000);
    // The last tick before the expiry never settles an order.
    await tick(symbol, direction === "up" ? "150" : "50", at(expiry, -1));
    const recorded = [];
    for (const [ms, price] of afterExpiry) {
      recorded.push(...(await tick(symbol, price, at(expiry, ms))));
    }
    return { user, order, expiry, recorded };
  }

  it("a win pays amount + amount × payout rate (200 + 160 at 0.8), with the tick at the expiry instant", async () => {
    const { user, order, expiry, recorded } = await scenario("up", [
      [0, "100.01"],
      [400, "90"],
    ]);
    expect(await optionBalance(user.id)).toBe("798");
    const house = await houseBalance();
    const result = await settleOption(db, order.id, at(expiry, 1000));
    expect(result.state).toBe("settled");
    const settled = await getOptionOrder(db, user.id, order.id);
    expect(settled).toMatchObject({
      status: "won",
      settlement_price: "100.01",
      settlement_tick_time: expiry.toISOString(),
      payout: "360",
      profit: "158",
      settled_at: at(expiry, 1000).toISOString(),
    });
    const [row] = await db.select().from(optionOrders).where(eq(optionOrders.id, order.id));
    expect(row?.settlementTickId).toBe(recorded[0]?.id);
    expect(await optionBalance(user.id)).toBe("1158");
    expect(norm(new MoneyDecimal(house).minus(await houseBalance()).toFixed())).toBe("360");
  });

  it("settles on a tick recorded with its provenance, shows where the price came from, and gives its owner alone the ticks a minute around it", async () => {
    const t0 = slot();
    const user = await newUser("1000");
    const other = await newUser("0");
    const recorder = new OptionTickRecorder(db);
    const expiry = at(t0, 30_000);
    const feed = (price: string, time: Date, sourceId: string) =>
      recorder.onTick({
        symbol: "BTCUSDT",
        price,
        time: time.getTime(),
        source: "binance",
        sourceSymbol: "BTC/USDT",
        sourceTime: time.getTime(),
        sourceId,
        receivedAt: time.getTime() + 37,
      });
    feed("64000", at(t0, -100), "t-1");
    await recorder.flush();
    const order = await buy(user, t0, { amount: "100", period_seconds: 30 });
    feed("64100", at(expiry, -60_589), "t-2"); // more than a minute before the settlement tick: not around it
    feed("64150", at(expiry, -59_588), "t-3"); // exactly a minute before it: around
    feed("64210.5", at(expiry, 412), "t-4");
    feed("64300", at(expiry, 60_412), "t-5"); // exactly a minute after: still around
    feed("64400", at(expiry, 60_413), "t-6");
    await recorder.flush();
    expect((await settleOption(db, order.id, at(expiry, 1000))).state).toBe("settled");

    const settled = await getOptionOrder(db, user.id, order.id);
    expect(settled.settlement_price).toBe("64210.5");
    expect(settled.settlement_source).toEqual({
      id: settled.settlement_tick_id,
      price: "64210.5",
      time: at(expiry, 412).toISOString(),
      source: "binance",
      source_time: at(expiry, 412).toISOString(),
    });
    const [listed] = (await listOptionOrders(db, user.id, { scope: "history", page: 1, pageSize: 1 })).items;
    expect(listed?.settlement_source?.source).toBe("binance");

    const around = await optionOrderTicks(db, user.id, order.id);
    expect(around.settlement_tick_id).toBe(settled.settlement_tick_id);
    expect(around.ticks.map((t) => [t.price, t.source_id])).toEqual([
      ["64150", "t-3"],
      ["64000", "t-1"],
      ["64210.5", "t-4"],
      ["64300", "t-5"],
    ]);
    expect(around.ticks[2]).toMatchObject({
      id: settled.settlement_tick_id,
      symbol: "BTCUSDT",
      source: "binance",
      source_symbol: "BTC/USDT",
      source_time: at(expiry, 412).toISOString(),
      received_at: at(expiry, 449).toISOString(),
    });
    // Another user's id reaches nothing, and a missing one nothing either.
    expect((await refusal(optionOrderTicks(db, other.id, order.id))).code).toBe("ORDER_NOT_FOUND");
    expect((await refusal(optionOrderTicks(db, user.id, order.id + 1_000_000))).code).toBe("ORDER_NOT_FOUND");
  });

  it("a loss pays nothing: down, settled 1 ms after expiry at a higher price", async () => {
    const { user, order, expiry } = await scenario("down", [
      [1, "100.5"],
      [900, "10"],
    ]);
    const house = await houseBalance();
    expect((await settleOption(db, order.id, at(expiry, 2000))).state).toBe("settled");
    expect(await getOptionOrder(db, user.id, order.id)).toMatchObject({
      status: "lost",
      settlement_price: "100.5",
      payout: "0",
      profit: "-202",
    });
    expect(await optionBalance(user.id)).toBe("798");
    expect(await houseBalance()).toBe(house);
  });

  it("a tie refunds the amount, not the fee (policy default)", async () => {
    const { user, order, expiry } = await scenario("up", [[250, "100.000"]]);
    expect((await settleOption(db, order.id, at(expiry, 300))).state).toBe("settled");
    expect(await getOptionOrder(db, user.id, order.id)).toMatchObject({
      status: "tied",
      payout: "200",
      profit: "-2",
    });
    expect(await optionBalance(user.id)).toBe("998");
  });

  it("waits, and changes nothing, while no tick at or after the expiry is recorded; not before expiry either", async () => {
    const { user, order, expiry } = await scenario("up", []);
    expect((await settleOption(db, order.id, at(expiry, -10))).state).toBe("not_due");
    expect((await settleOption(db, order.id, at(expiry, 5000))).state).toBe("waiting");
    expect(await getOptionOrder(db, user.id, order.id)).toMatchObject({
      status: "open",
      settlement_price: null,
    });
    expect(await optionBalance(user.id)).toBe("798");
    await tick("ETHUSDT", "101", at(expiry, 6000));
    expect((await settleOption(db, order.id, at(expiry, 7000))).state).toBe("settled");
    expect(await getOptionOrder(db, user.id, order.id)).toMatchObject({
      status: "won",
      settlement_price: "101",
    });
  });

  it("voids an order with no tick within the policy's gap after expiry and refunds amount and fee, once", async () => {
    // The policy default: 10 s. A tick 10.001 s after the expiry is too late to be its price.
    const { user, order, expiry } = await scenario("up", [[10_001, "300"]], "SOLUSDT");
    expect(await optionBalance(user.id)).toBe("798");
    const house = await houseBalance();
    // Within the gap the settlement waits for a tick; it may still come.
    expect((await settleOption(db, order.id, at(expiry, 9_000))).state).toBe("waiting");
    const results = await Promise.all(
      Array.from({ length: 4 }, () => settleOption(db, order.id, at(expiry, 10_500))),
    );
    expect(results.map((r) => r.state).sort()).toEqual(["already", "already", "already", "voided"]);
    expect((await settleOption(db, order.id, at(expiry, 60_000))).state).toBe("already");
    expect(await getOptionOrder(db, user.id, order.id)).toMatchObject({
      status: "void",
      settlement_price: null,
      settlement_tick_time: null,
      payout: "202",
      profit: "0",
      settled_at: at(expiry, 10_500).toISOString(),
    });
    expect(await optionBalance(user.id)).toBe("1000");
    expect(norm(new MoneyDecimal(house).minus(await houseBalance()).toFixed())).toBe("202");
    const entries = await db.execute<{ n: number }>(
      sql`select count(*)::int as n from journal_entries where reference_type = 'option_order' and reference_id = ${String(order.id)}`,
    );
    expect(entries.rows[0]?.n).toBe(2);
  });

  it("the sweeper voids the orders whose feed stopped at expiry and settles those with a tick within the gap", async () => {
    await setPolicy(db, "options.settlement.maxGapSeconds", 5, "test");
    try {
      const t0 = slot();
      const user = await newUser("1000");
      await tick("XRPUSDT", "2", at(t0, -100));
      await tick("BNBUSDT", "600", at(t0, -100));
      const stopped = await buy(user, t0, { symbol: "XRPUSDT", amount: "10", period_seconds: 30 });
      const priced = await buy(user, t0, { symbol: "BNBUSDT", amount: "10", period_seconds: 30 });
      await tick("BNBUSDT", "601", at(t0, 34_999));
      // XRPUSDT's next tick comes 6 s after the expiry: outside the 5 s gap.
      await tick("XRPUSDT", "1", at(t0, 36_000));
      const swept = await settleDueOptions(db, at(t0, 36_000));
      expect(swept.settled).toBeGreaterThanOrEqual(2);
      expect(swept.waiting).toBe(0);
      expect(await getOptionOrder(db, user.id, stopped.id)).toMatchObject({ status: "void", payout: "10.1" });
      expect(await getOptionOrder(db, user.id, priced.id)).toMatchObject({
        status: "won",
        settlement_price: "601",
      });
      // 1000 − 2 × 10.1 + 10.1 (void: amount and fee) + 18 (a win at 0.8)
      expect(await optionBalance(user.id)).toBe("1007.9");
    } finally {
      await setPolicy(db, "options.settlement.maxGapSeconds", 10, "test");
    }
  });

  it("pays once when settled many times at once (a job delivered twice, the sweeper racing it)", async () => {
    const { user, order, expiry } = await scenario("up", [[10, "120"]], "BNBUSDT");
    const results = await Promise.all(
      Array.from({ length: 8 }, () => settleOption(db, order.id, at(expiry, 100))),
    );
    expect(results.filter((r) => r.state === "settled")).toHaveLength(1);
    expect(results.filter((r) => r.state === "already")).toHaveLength(7);
    expect((await settleOption(db, order.id, at(expiry, 60_000))).state).toBe("already");
    expect(await optionBalance(user.id)).toBe("1158");
    const entries = await db.execute<{ n: number }>(
      sql`select count(*)::int as n from journal_entries where reference_type = 'option_order' and reference_id = ${String(order.id)}`,
    );
    expect(entries.rows[0]?.n).toBe(2);
  });

  it("the sweeper settles every order overdue at `now` with its own first tick, and leaves the others open", async () => {
    const t0 = slot();
    const user = await newUser("1000");
    await tick("SOLUSDT", "100", at(t0, -100));
    const short = await buy(user, t0, { symbol: "SOLUSDT", amount: "10", period_seconds: 30 });
    const long = await buy(user, t0, { symbol: "SOLUSDT", amount: "10", period_seconds: 300 });
    await tick("SOLUSDT", "99", at(t0, 30_500));
    await tick("SOLUSDT", "105", at(t0, 45_000));
    const { settled } = await settleDueOptions(db, at(t0, 60_000));
    expect(settled).toBeGreaterThanOrEqual(1);
    expect(await getOptionOrder(db, user.id, short.id)).toMatchObject({
      status: "lost",
      settlement_price: "99",
    });
    expect(await getOptionOrder(db, user.id, long.id)).toMatchObject({ status: "open" });
    const open = await db
      .select()
      .from(optionOrders)
      .where(and(eq(optionOrders.userId, user.id), eq(optionOrders.status, "open")));
    expect(open.map((o) => o.id)).toEqual([long.id]);
  });

  it("prunes old ticks nothing needs, keeping orders' purchase ticks and those an open order may settle on", async () => {
    const t0 = slot();
    const user = await newUser("500");
    // Symbols no other test here trades, so no order of theirs stands in the way.
    const [stray] = await tick("XRPUSDT", "2.1", at(t0, -60_000));
    const [other] = await tick("BNBUSDT", "600", at(t0, -60_000));
    const [bought] = await tick("XRPUSDT", "2.2", at(t0, -100));
    await buy(user, t0, { symbol: "XRPUSDT", amount: "10", period_seconds: 60 });
    // After the open order's expiry: it may settle on this one.
    const [afterExpiry] = await tick("XRPUSDT", "2.3", at(t0, 61_000));
    const ids = [stray, other, bought, afterExpiry].map((t) => t?.id ?? 0);
    const kept = async () =>
      (
        await db.execute<{ id: string }>(
          sql`select id from option_ticks where id in ${sql.raw(`(${ids.join(",")})`)}`,
        )
      ).rows
        .map((r) => Number(r.id))
        .sort((a, b) => a - b);

    // A cut before them leaves all four (older ticks of the tests above may go).
    await pruneTicks(db, at(t0, -120_000));
    expect(await kept()).toEqual([...ids].sort((a, b) => a - b));
    await pruneTicks(db, at(t0, 3_600_000));
    expect(await kept()).toEqual([bought?.id, afterExpiry?.id].map(Number).sort((a, b) => a - b));
  });

  it("the ledger reconciles after all of it", async () => {
    expect((await reconcileLedger(db)).ok).toBe(true);
  });
});
