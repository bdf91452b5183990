import { CONTRACT_DECIMALS } from "@northstar/shared/contract-math";
import { ZOpenContractRequestSchema } from "@northstar/shared/contracts/contracts";
import { MoneyDecimal } from "@northstar/shared/money";
import { policyDefaults } from "@northstar/shared/policy";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type Db } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { findDustBalances, reconcileLedger } from "../ledger/index.ts";
import { clearSourceHealth, recordRunningFeed, recordSourceHealth } from "../markets/index.ts";
import { setPolicy } from "../policy/index.ts";
import { seedDatabase } from "../setup/index.ts";
import { createTestDatabase } from "../test-support/index.ts";
import { contractPositions } from "./contracts.table.ts";
import { contractPositionTicks, getContractPosition, listContractPositions } from "./list-positions.ts";
import {
  adjustContractMargin,
  cancelContractOrder,
  closeAllContractPositions,
  closeContractPosition,
  updateContractTpSl,
} from "./manage-position.ts";
import { openContractPosition } from "./open-position.ts";
import { chargeOvernight, dueOvernightCharges } from "./overnight.ts";
import { listContractProducts } from "./products.ts";
import { ContractRiskEngine } from "./risk-engine.ts";
import { contractWallet, newContractUser } from "./testing.ts";
import { pruneContractTicks } from "./tick-retention.ts";
import { recordContractTicks } from "./ticks.ts";
import { applyTick, triggerAt } from "./trigger.ts";

/**
 * Contracts against a real database. The clock is a test clock that only moves forward; every price
 * is a tick the test records, as the worker's recorder would from the feed.
 */
let db: Db;
let pool: ReturnType<typeof createDb>["pool"];
let teardown: () => Promise<void>;
beforeAll(async () => {
  const database = await createTestDatabase();
  const conn = createDb(database.url, { max: 30 });
  conn.pool.on("error", () => {});
  db = conn.db;
  pool = conn.pool;
  await seedDatabase(db);
  teardown = async () => {
    await conn.close();
    await database.drop();
  };
});
afterAll(async () => {
  await teardown?.();
});

// A Wednesday, 10:00 in New York: every market of the seed is open.
const clock = { now: new Date(Date.UTC(2026, 0, 7, 15, 0, 0)) };
const now = () => clock.now;
const advance = (ms: number) => {
  clock.now = new Date(clock.now.getTime() + ms);
  return clock.now;
};
const tick = async (symbol: string, price: string) => {
  const [row] = await recordContractTicks(db, [{ symbol, price, time: advance(100).getTime() }]);
  return row;
};
const open = (user: Parameters<typeof openContractPosition>[1], input: Record<string, unknown>) =>
  openContractPosition({ db, now }, user, ZOpenContractRequestSchema.parse(input));
const refused = async (promise: Promise<unknown>) => {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) {
      return { code: error.code, field: error.field };
    }
    throw error;
  }
  throw new Error("not refused");
};
const reconciled = async () => {
  const report = await reconcileLedger(db);
  expect(report.mismatchedAccounts).toEqual([]);
  expect(report.unbalancedCurrencies).toEqual([]);
  expect(report.unbalancedEntries).toEqual([]);
};

describe("opening a contract position", () => {
  it("opens a 10x long at the latest tick, holding margin and charging the fee through the ledger", async () => {
    const user = await newContractUser(db, "10000");
    const t = await tick("BTCUSDT", "90000");
    const p = await open(user, {
      symbol: "BTCUSDT",
      side: "long",
      lots: "0.1",
      leverage: 10,
      take_profit: "95000",
      stop_loss: "88000",
    });
    // margin 90000 × 0.1 ÷ 10 = 900; fee 9000 × 0.0005 = 4.5
    expect(p).toMatchObject({
      status: "holding",
      entry_price: "90000",
      margin: "900",
      open_fee: "4.5",
      leverage: 10,
    });
    expect(p.liquidation_price).toBe("81407.03517588");
    expect(await contractWallet(db, user.id)).toEqual({ available: "9095.5", held: "900" });
    const { position } = await getContractPosition(db, user, p.id);
    expect(position.id).toBe(p.id);
    expect(t?.id).toBeGreaterThan(0);
    await reconciled();
  });

  it("trades a demo account in the demo book, never the real one", async () => {
    const demo = await newContractUser(db, "5000", "demo");
    await tick("BTCUSDT", "90000");
    const p = await open(demo, { symbol: "BTCUSDT", side: "short", lots: "0.01", leverage: 20 });
    expect(p.margin).toBe("45");
    expect(await contractWallet(db, demo.id, "demo")).toEqual({ available: "4954.55", held: "45" });
    expect(await contractWallet(db, demo.id, "real")).toEqual({ available: "0", held: "0" });
    const books = await pool.query(
      "select distinct e.book from journal_entries e where e.reference_type = 'contract_position' and e.reference_id = $1",
      [String(p.id)],
    );
    expect(books.rows).toEqual([{ book: "demo" }]);
    await reconciled();
  });

  it("opens nothing on a market whose live source is stale, naming the source, and opens once it is live again", async () => {
    const user = await newContractUser(db, "1000");
    await tick("EURUSD", "1.15");
    const since = clock.now.getTime() - 120_000;
    const stale = { source: "yahoo" as const, label: "yahoo", lastSourceTime: since, lastError: null };
    const position = { symbol: "EURUSD", side: "long", lots: "0.01", leverage: 10 };
    try {
      await recordRunningFeed(db, "live", false);
      await recordSourceHealth(db, [{ ...stale, staleSince: since }]);
      expect(await refused(open(user, position))).toEqual({ code: "MARKET_PRICES_PAUSED", field: undefined });
      expect(await contractWallet(db, user.id)).toEqual({ available: "1000", held: "0" });
      // Crypto comes from another source, which is live: its markets go on.
      await tick("BTCUSDT", "90000");
      expect((await open(user, { symbol: "BTCUSDT", side: "long", lots: "0.01", leverage: 10 })).status).toBe(
        "holding",
      );
      await recordSourceHealth(db, [{ ...stale, staleSince: null }]);
      await tick("EURUSD", "1.15");
      expect((await open(user, position)).status).toBe("holding");
      await reconciled();
    } finally {
      await clearSourceHealth(db);
      await recordRunningFeed(db, "simulator", false);
    }
  });

  it("refuses bad input with a named field and changes nothing", async () => {
    const user = await newContractUser(db, "1000");
    await tick("ETHUSDT", "3000");
    const base = { symbol: "ETHUSDT", side: "long", lots: "1", leverage: 10 };
    expect(await refused(open(user, { ...base, leverage: 7 }))).toEqual({
      code: "CONTRACT_LEVERAGE_INVALID",
      field: "leverage",
    });
    expect(await refused(open(user, { ...base, lots: "0.005" }))).toMatchObject({
      code: "CONTRACT_LOTS_INVALID",
      field: "lots",
    });
    expect(await refused(open(user, { ...base, lots: "1000" }))).toMatchObject({
      code: "CONTRACT_LOTS_INVALID",
    });
    expect(await refused(open(user, { ...base, take_profit: "2900" }))).toEqual({
      code: "CONTRACT_TAKE_PROFIT_INVALID",
      field: "take_profit",
    });
    expect(await refused(open(user, { ...base, side: "short", stop_loss: "2900" }))).toEqual({
      code: "CONTRACT_STOP_LOSS_INVALID",
      field: "stop_loss",
    });
    expect(await refused(open(user, { ...base, order_type: "limit" }))).toMatchObject({
      code: "CONTRACT_LIMIT_PRICE_REQUIRED",
    });
    expect(await refused(open(user, { ...base, symbol: "NOPE" }))).toMatchObject({
      code: "CONTRACT_NOT_AVAILABLE",
    });
    // 3.33 lots: margin 999 (within the unassessed risk cap of 1000) plus fee 4.995 > 1000.
    expect(await refused(open(user, { ...base, lots: "3.33" }))).toMatchObject({
      code: "INSUFFICIENT_BALANCE",
    });
    expect(await refused(open(user, { ...base, lots: "3.4" }))).toMatchObject({
      code: "RISK_LIMIT_EXCEEDED",
    });
    expect(() => ZOpenContractRequestSchema.parse({ ...base, lots: "-1" })).toThrow();
    // A closed market (Sunday) refuses new orders.
    await tick("AAPL", "270");
    const sunday = new Date(Date.UTC(2026, 0, 11, 15, 0, 0));
    expect(
      await refused(
        openContractPosition(
          { db, now: () => sunday },
          user,
          ZOpenContractRequestSchema.parse({ ...base, symbol: "AAPL" }),
        ),
      ),
    ).toMatchObject({ code: "MARKET_CLOSED" });
    expect(await contractWallet(db, user.id)).toEqual({ available: "1000", held: "0" });
    expect((await listContractPositions(db, user, { scope: "holding", page: 1, page_size: 20 })).total).toBe(
      0,
    );
  });
});

describe("managing a position", () => {
  it("closes half then all, settling PnL against the house, and a second simultaneous close closes nothing", async () => {
    const user = await newContractUser(db, "10000");
    await tick("SOLUSDT", "100");
    const p = await open(user, { symbol: "SOLUSDT", side: "long", lots: "10", leverage: 10 });
    // margin 100, fee 0.5
    await tick("SOLUSDT", "110");
    const half = await closeContractPosition({ db, now }, user, { id: p.id, lots: "5" });
    // pnl +50, fee 550 × 0.0005 = 0.275, released margin 50 → payout 99.725
    expect(half).toMatchObject({
      status: "holding",
      lots: "5",
      margin: "50",
      realised_pnl: "50",
      close_fee: "0.275",
    });
    expect(await contractWallet(db, user.id)).toEqual({ available: "9999.225", held: "50" });
    await tick("SOLUSDT", "90");
    const results = await Promise.allSettled([
      closeContractPosition({ db, now }, user, { id: p.id }),
      closeContractPosition({ db, now }, user, { id: p.id }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
    const rejected = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect((rejected.reason as AppError).code).toBe("CONTRACT_NOT_HOLDING");
    // second half: pnl −50, fee 450 × 0.0005 = 0.225, released 50 → payout 0 − 0.225 capped: 50 − 50 = 0 left, fee 0
    const { position, closes } = await getContractPosition(db, user, p.id);
    expect(position).toMatchObject({
      status: "closed",
      lots: "0",
      margin: "0",
      close_reason: "user",
      exit_price: "90",
    });
    expect(closes).toHaveLength(2);
    expect(await contractWallet(db, user.id)).toEqual({ available: "9999.225", held: "0" });
    await reconciled();
  });

  it("closes once when the same close is sent 50 times at once", async () => {
    const user = await newContractUser(db, "1000");
    await tick("LINKUSDT", "20");
    const p = await open(user, { symbol: "LINKUSDT", side: "short", lots: "5", leverage: 10 });
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, () => closeContractPosition({ db, now }, user, { id: p.id })),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const codes = new Set(
      results.flatMap((r) => (r.status === "rejected" ? [(r.reason as AppError).code] : [])),
    );
    expect([...codes]).toEqual(["CONTRACT_NOT_HOLDING"]);
    const { closes } = await getContractPosition(db, user, p.id);
    expect(closes).toHaveLength(1);
    // margin 10 + fee 0.05 out, 10 − 0.05 back (price unchanged): 999.9 left.
    expect(await contractWallet(db, user.id)).toEqual({ available: "999.9", held: "0" });
    await reconciled();
  });

  it("adds margin up to the maximum and reduces it only down to the initial margin", async () => {
    const user = await newContractUser(db, "10000");
    await tick("BNBUSDT", "1000");
    const p = await open(user, { symbol: "BNBUSDT", side: "short", lots: "1", leverage: 10 });
    expect(p.margin).toBe("100");
    // ratio 5: at most 600 in all.
    expect(
      await refused(adjustContractMargin({ db, now }, user, { id: p.id, direction: "add", amount: "501" })),
    ).toEqual({
      code: "CONTRACT_EXTRA_MARGIN_LIMIT",
      field: "amount",
    });
    const added = await adjustContractMargin({ db, now }, user, {
      id: p.id,
      direction: "add",
      amount: "200",
    });
    expect(added.margin).toBe("300");
    expect(Number(added.liquidation_price)).toBeGreaterThan(Number(p.liquidation_price));
    await tick("BNBUSDT", "1000");
    expect(
      await refused(
        adjustContractMargin({ db, now }, user, { id: p.id, direction: "reduce", amount: "200.01" }),
      ),
    ).toMatchObject({
      code: "CONTRACT_MARGIN_BELOW_SAFE",
    });
    const reduced = await adjustContractMargin({ db, now }, user, {
      id: p.id,
      direction: "reduce",
      amount: "150",
    });
    expect(reduced.margin).toBe("150");
    expect(await contractWallet(db, user.id)).toMatchObject({ held: "150" });
    const tpsl = await updateContractTpSl({ db, now }, user, {
      id: p.id,
      take_profit: "900",
      stop_loss: "1100",
    });
    expect(tpsl).toMatchObject({ take_profit: "900", stop_loss: "1100" });
    expect(
      await refused(updateContractTpSl({ db, now }, user, { id: p.id, take_profit: "1100" })),
    ).toMatchObject({
      code: "CONTRACT_TAKE_PROFIT_INVALID",
    });
    await reconciled();
  });

  it("refuses margin finer than USDT's 6 decimals, naming the field and the decimals, and changes nothing", async () => {
    const user = await newContractUser(db, "10000");
    await tick("BNBUSDT", "1000");
    const p = await open(user, { symbol: "BNBUSDT", side: "long", lots: "1", leverage: 10 });
    const wallet = await contractWallet(db, user.id);
    for (const direction of ["add", "reduce"] as const) {
      const e = await adjustContractMargin({ db, now }, user, {
        id: p.id,
        direction,
        amount: "10.1234567",
      }).then(
        () => null,
        (error: unknown) => error as AppError,
      );
      expect([e?.code, e?.params, e?.field]).toEqual(["AMOUNT_TOO_PRECISE", { decimals: 6 }, "amount"]);
    }
    expect(await contractWallet(db, user.id)).toEqual(wallet);
    expect((await getContractPosition(db, user, p.id)).position.margin).toBe(p.margin);
  });

  it("keeps margins, fees and a close's PnL in USDT's decimals: no balance holds dust", async () => {
    const [usdt] = await db
      .execute<{ decimals: number }>(sql`select decimals from currencies where code = 'USDT'`)
      .then((r) => r.rows);
    expect(usdt?.decimals).toBe(CONTRACT_DECIMALS);
    const user = await newContractUser(db, "10000");
    await tick("ETHUSDT", "3123.456789");
    // margin 3123.456789 × 0.3 ÷ 2 = 468.51851835 → 468.518519 held; fee × 0.0005 = 0.4685185… → 0.468519.
    const p = await open(user, { symbol: "ETHUSDT", side: "long", lots: "0.3", leverage: 2 });
    expect([p.margin, p.open_fee]).toEqual(["468.518519", "0.468519"]);
    await adjustContractMargin({ db, now }, user, { id: p.id, direction: "add", amount: "1.000001" });
    await tick("ETHUSDT", "3129.8765433");
    await closeContractPosition({ db, now }, user, { id: p.id, lots: "0.1" });
    await tick("ETHUSDT", "3117.1111119");
    await closeContractPosition({ db, now }, user, { id: p.id });
    expect((await getContractPosition(db, user, p.id)).position.status).not.toBe("holding");
    expect((await findDustBalances(db)).filter((dust) => dust.userId === user.id)).toEqual([]);
    await reconciled();
  });

  it("keeps another user's position out of reach", async () => {
    const owner = await newContractUser(db, "1000");
    const other = await newContractUser(db, "1000");
    await tick("XRPUSDT", "2");
    const p = await open(owner, { symbol: "XRPUSDT", side: "long", lots: "10", leverage: 10 });
    for (const attempt of [
      () => closeContractPosition({ db, now }, other, { id: p.id }),
      () => adjustContractMargin({ db, now }, other, { id: p.id, direction: "add", amount: "1" }),
      () => updateContractTpSl({ db, now }, other, { id: p.id }),
      () => cancelContractOrder({ db, now }, other, p.id),
      () => getContractPosition(db, other, p.id),
    ]) {
      expect(await refused(attempt())).toEqual({ code: "CONTRACT_NOT_FOUND", field: "id" });
    }
    expect(await closeAllContractPositions({ db, now }, other)).toEqual([]);
    expect((await getContractPosition(db, owner, p.id)).position.status).toBe("holding");
  });

  it("cancels a pending limit order, returning margin and fee", async () => {
    const user = await newContractUser(db, "1000");
    await tick("ADAUSDT", "0.5");
    const p = await open(user, {
      symbol: "ADAUSDT",
      side: "long",
      order_type: "limit",
      price: "0.4",
      lots: "100",
      leverage: 10,
    });
    expect(p).toMatchObject({ status: "pending", margin: "4", limit_price: "0.4" });
    expect(await contractWallet(db, user.id)).toEqual({ available: "995.98", held: "4.02" });
    expect((await cancelContractOrder({ db, now }, user, p.id)).status).toBe("cancelled");
    expect(await refused(cancelContractOrder({ db, now }, user, p.id))).toMatchObject({
      code: "CONTRACT_NOT_HOLDING",
    });
    expect(await contractWallet(db, user.id)).toEqual({ available: "1000", held: "0" });
  });
});

describe("the risk engine", () => {
  it("fills a limit order, takes profit, stops loss and liquidates at the triggering tick, each once", async () => {
    const engine = new ContractRiskEngine(db, { name: "triggers" });
    await engine.start();
    const user = await newContractUser(db, "100000");
    await tick("DOGEUSDT", "1");
    await tick("LINKUSDT", "10");
    await tick("LTCUSDT", "100");
    await tick("DOTUSDT", "10");
    const limit = await open(user, {
      symbol: "DOGEUSDT",
      side: "long",
      order_type: "limit",
      price: "0.9",
      lots: "100",
      leverage: 10,
    });
    const tp = await open(user, {
      symbol: "LINKUSDT",
      side: "short",
      lots: "10",
      leverage: 10,
      take_profit: "9",
    });
    const sl = await open(user, {
      symbol: "LTCUSDT",
      side: "long",
      lots: "1",
      leverage: 10,
      stop_loss: "95",
    });
    const liq = await open(user, { symbol: "DOTUSDT", side: "long", lots: "10", leverage: 20 });
    // liquidation price (100 − 5) ÷ (10 × 0.995) = 9.5477386934…, shown rounded up
    expect(liq.liquidation_price).toBe("9.5477387");
    await engine.drain();
    await tick("DOGEUSDT", "0.91");
    await tick("LINKUSDT", "9.01");
    await tick("LTCUSDT", "95.01");
    await tick("DOTUSDT", "9.55");
    await engine.drain();
    for (const p of [limit, tp, sl, liq]) {
      expect((await getContractPosition(db, user, p.id)).position.status).toBe(
        p === limit ? "pending" : "holding",
      );
    }
    const fillTick = await tick("DOGEUSDT", "0.9");
    const tpTick = await tick("LINKUSDT", "8.5");
    const slTick = await tick("LTCUSDT", "94");
    const liqTick = await tick("DOTUSDT", "9.547");
    await tick("DOTUSDT", "5");
    await engine.drain();
    const filled = (await getContractPosition(db, user, limit.id)).position;
    expect(filled).toMatchObject({ status: "holding", entry_price: "0.9", open_fee: "0.045" });
    const tpDone = await getContractPosition(db, user, tp.id);
    expect(tpDone.position).toMatchObject({
      status: "closed",
      close_reason: "take_profit",
      exit_price: "8.5",
    });
    expect(tpDone.closes[0]?.tick_id).toBe(tpTick?.id);
    const slDone = await getContractPosition(db, user, sl.id);
    expect(slDone.position).toMatchObject({ status: "closed", close_reason: "stop_loss", exit_price: "94" });
    expect(slDone.closes[0]?.tick_id).toBe(slTick?.id);
    const liqDone = await getContractPosition(db, user, liq.id);
    expect(liqDone.position).toMatchObject({
      status: "liquidated",
      close_reason: "liquidation",
      exit_price: "9.547",
    });
    expect(liqDone.closes).toHaveLength(1);
    expect(liqDone.closes[0]?.tick_id).toBe(liqTick?.id);
    expect(fillTick?.id).toBeGreaterThan(0);
    // A restarted engine re-reading the same ticks doubles nothing.
    const again = new ContractRiskEngine(db, { name: "triggers-replay" });
    await again.start();
    await pool.query("update contract_engine_cursor set tick_id = $1 where name = 'triggers-replay'", [
      (fillTick?.id ?? 1) - 1,
    ]);
    const replay = new ContractRiskEngine(db, { name: "triggers-replay" });
    await replay.start();
    await replay.drain();
    const n = await pool.query("select count(*)::int as n from contract_closes where position_id = any($1)", [
      [tp.id, sl.id, liq.id],
    ]);
    expect(n.rows[0].n).toBe(3);
    await reconciled();
  });

  it("liquidates beyond the margin without touching the user's other balance: the insurance pays the shortfall", async () => {
    const engine = new ContractRiskEngine(db, { name: "gap" });
    await engine.start();
    const user = await newContractUser(db, "1000");
    await tick("AVAXUSDT", "10");
    const p = await open(user, { symbol: "AVAXUSDT", side: "long", lots: "10", leverage: 50 });
    const before = await contractWallet(db, user.id);
    await tick("AVAXUSDT", "8");
    await engine.drain();
    const { position, closes } = await getContractPosition(db, user, p.id);
    expect(position.status).toBe("liquidated");
    // margin 2, loss 20: the user loses 2, the insurance pays the other 18.
    expect(closes[0]).toMatchObject({ pnl: "-20", payout: "0", shortfall: "18", fee: "0" });
    expect(await contractWallet(db, user.id)).toEqual({ available: before.available, held: "0" });
    await reconciled();
  });
});

describe("leverage caps", () => {
  it("offers up to 100x on crypto perpetuals and at most 25x on the bitcoin CFD, whatever the levels say", async () => {
    const products = await listContractProducts(db, now());
    const btc = products.find((p) => p.symbol === "BTCUSDT");
    const cfd = products.find((p) => p.symbol === "BTCUSD");
    expect(btc?.leverage.at(-1)).toBe(100);
    expect(cfd).toMatchObject({ type: "perpetual", leverage: [1, 2, 5, 10, 20, 25] });
    // An operator listing higher levels cannot lift the caps (class 100x, bitcoin CFD 25x).
    await setPolicy(
      db,
      "contracts.products",
      { BTCUSD: { leverage: [1, 25, 50, 100] }, BTCUSDT: { leverage: [10, 100, 150] } },
      "test",
    );
    try {
      const capped = await listContractProducts(db, now());
      expect(capped.find((p) => p.symbol === "BTCUSD")?.leverage).toEqual([1, 25]);
      expect(capped.find((p) => p.symbol === "BTCUSDT")?.leverage).toEqual([10, 100]);
      const user = await newContractUser(db, "100000");
      await tick("BTCUSD", "90000");
      expect(
        await refused(open(user, { symbol: "BTCUSD", side: "long", lots: "0.1", leverage: 50 })),
      ).toEqual({
        code: "CONTRACT_LEVERAGE_INVALID",
        field: "leverage",
      });
      const p = await open(user, { symbol: "BTCUSD", side: "long", lots: "0.1", leverage: 25 });
      // 90000 × 0.1 ÷ 25
      expect(p).toMatchObject({ leverage: 25, margin: "360" });
    } finally {
      await setPolicy(db, "contracts.products", policyDefaults()["contracts.products"], "test");
    }
  });
});

describe("the risk engine's search", () => {
  it("decides at the exact liquidation boundary, to the last decimal of the price", async () => {
    const engine = new ContractRiskEngine(db, { name: "boundary" });
    await engine.start();
    const user = await newContractUser(db, "1000");
    await tick("ETCUSDT", "10");
    const p = await open(user, { symbol: "ETCUSDT", side: "long", lots: "10", leverage: 20 });
    const [row] = await db.select().from(contractPositions).where(eq(contractPositions.id, p.id));
    // Prices falling by 1e-8 across the exact threshold (about 9.54773869): the first tick the exact
    // rule liquidates at is the one the engine closes at, and none before it.
    const prices = Array.from({ length: 21 }, (_, i) =>
      new MoneyDecimal("9.54773880").minus(new MoneyDecimal(i).div(100_000_000)).toFixed(),
    );
    const first = prices.findIndex((price) => row && triggerAt(row, price) === "liquidation");
    expect(first).toBeGreaterThan(0);
    expect(first).toBeLessThan(prices.length - 1);
    for (const [i, price] of prices.entries()) {
      const t = await tick("ETCUSDT", price);
      await engine.drain();
      const { position, closes } = await getContractPosition(db, user, p.id);
      if (i < first) {
        expect(position.status).toBe("holding");
      } else {
        expect(position.status).toBe("liquidated");
        expect(closes).toHaveLength(1);
        if (i === first) {
          expect(closes[0]).toMatchObject({ tick_id: t?.id, price });
        }
      }
    }
    await reconciled();
  });

  it("fills a limit order and liquidates it at a later tick read in the same batch, at that tick", async () => {
    const engine = new ContractRiskEngine(db, { name: "fill-then-liquidate" });
    await engine.start();
    const user = await newContractUser(db, "1000");
    await tick("XLMUSDT", "1");
    const p = await open(user, {
      symbol: "XLMUSDT",
      side: "long",
      order_type: "limit",
      price: "0.9",
      lots: "100",
      leverage: 20,
    });
    const fill = await tick("XLMUSDT", "0.9");
    await tick("XLMUSDT", "0.89");
    // Liquidation near (90 − 4.5) ÷ (100 × 0.995) = 0.8593: crossed here and again by the next tick.
    const crossing = await tick("XLMUSDT", "0.85");
    await tick("XLMUSDT", "0.8");
    await engine.drain();
    const { position, closes } = await getContractPosition(db, user, p.id);
    expect(position).toMatchObject({ status: "liquidated", entry_price: "0.9", exit_price: "0.85" });
    expect(closes).toHaveLength(1);
    expect(closes[0]?.tick_id).toBe(crossing?.id);
    const [row] = await db.select().from(contractPositions).where(eq(contractPositions.id, p.id));
    expect(row?.openTickId).toBe(fill?.id);
    await reconciled();
  });

  it("fills a limit order at the better of its limit and the triggering tick, never worse than the market", async () => {
    const engine = new ContractRiskEngine(db, { name: "better-fill" });
    await engine.start();
    const user = await newContractUser(db, "1000");
    await tick("ATOMUSDT", "2");
    // A long limit far above the market: margin 3 × 100 ÷ 20 = 15, fee 300 × 0.0005 = 0.15 held.
    const long = await open(user, {
      symbol: "ATOMUSDT",
      side: "long",
      order_type: "limit",
      price: "3",
      lots: "100",
      leverage: 20,
    });
    expect(await contractWallet(db, user.id)).toEqual({ available: "984.85", held: "15.15" });
    const fill = await tick("ATOMUSDT", "2");
    await tick("ATOMUSDT", "2");
    await engine.drain();
    const { position, closes } = await getContractPosition(db, user, long.id);
    // Filled at its limit (3) the next tick would liquidate it (liquidation near 2.864); at the tick it holds.
    expect(position).toMatchObject({ status: "holding", entry_price: "2", open_fee: "0.1" });
    expect(closes).toHaveLength(0);
    const [row] = await db.select().from(contractPositions).where(eq(contractPositions.id, long.id));
    expect(row?.openTickId).toBe(fill?.id);
    // The fee is the fill's (200 × 0.0005); the rest of the held fee returns; the margin stays held.
    expect(await contractWallet(db, user.id)).toEqual({ available: "984.9", held: "15" });

    // A short limit far below the market fills at the tick (higher); its fee never exceeds the one held.
    const seller = await newContractUser(db, "1000");
    await tick("NEARUSDT", "1.91");
    const short = await open(seller, {
      symbol: "NEARUSDT",
      side: "short",
      order_type: "limit",
      price: "1.5",
      lots: "100",
      leverage: 20,
    });
    const up = await tick("NEARUSDT", "1.91");
    if (!up) {
      throw new Error("no tick");
    }
    const single = await applyTick(db, short.id, up);
    expect(single.state).toBe("triggered");
    expect((await getContractPosition(db, seller, short.id)).position).toMatchObject({
      status: "holding",
      entry_price: "1.91",
      open_fee: "0.075",
    });
    expect(await contractWallet(db, seller.id)).toEqual({ available: "992.425", held: "7.5" });
    await reconciled();
  });

  it("replays the ticks a position missed when its transaction commits after the engine read past them, however late", async () => {
    const engine = new ContractRiskEngine(db, { name: "late" });
    await engine.start();
    const user = await newContractUser(db, "1000");
    const opening = await tick("BCHUSDT", "100");
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let opened: (() => void) | undefined;
    const isOpen = new Promise<void>((resolve) => {
      opened = resolve;
    });
    let id = 0;
    // The opening's transaction stays open while the feed moves and the engine reads on; its rows
    // carry a time an hour before they become visible (a stalled connection, a long lock wait).
    const late = db.transaction(async (tx) => {
      const p = await openContractPosition(
        { db: tx as unknown as Db, now },
        user,
        ZOpenContractRequestSchema.parse({ symbol: "BCHUSDT", side: "long", lots: "1", leverage: 10 }),
      );
      id = p.id;
      await tx.execute(
        sql`update contract_positions set updated_at = now() - interval '1 hour' where id = ${p.id}`,
      );
      opened?.();
      await held;
    });
    await isOpen;
    // Liquidation near 90.45: this tick crosses it while the position is not yet visible.
    const crossing = await tick("BCHUSDT", "85");
    await tick("BCHUSDT", "99");
    await engine.drain();
    expect(engine.position).toBeGreaterThan(crossing?.id ?? 0);
    release();
    await late;
    const [row] = await db.select().from(contractPositions).where(eq(contractPositions.id, id));
    expect(row).toMatchObject({ status: "holding", openTickId: opening?.id, riskWatched: false });
    await engine.step();
    const { position, closes } = await getContractPosition(db, user, id);
    expect(position.status).toBe("liquidated");
    expect(closes).toHaveLength(1);
    expect(closes[0]).toMatchObject({ tick_id: crossing?.id, price: "85" });
    await tick("BCHUSDT", "80");
    await engine.drain();
    expect((await getContractPosition(db, user, id)).closes).toHaveLength(1);
    await reconciled();
  });
});

describe("tick retention", () => {
  it("deletes old ticks no position or engine needs, keeping every trade's ticks and each open position's path", async () => {
    await new ContractRiskEngine(db, { name: "retention" }).start();
    const user = await newContractUser(db, "1000");
    const t1 = await tick("FILUSDT", "10");
    const t2 = await tick("FILUSDT", "10");
    const a = await open(user, { symbol: "FILUSDT", side: "long", lots: "1", leverage: 10 });
    const t3 = await tick("FILUSDT", "10.5");
    await closeContractPosition({ db, now }, user, { id: a.id });
    const t4 = await tick("FILUSDT", "10");
    await open(user, { symbol: "FILUSDT", side: "short", lots: "1", leverage: 10 });
    const t5 = await tick("FILUSDT", "9.9");
    const u1 = await tick("APTUSDT", "2");
    const u2 = await tick("APTUSDT", "2.1");
    const u3 = await tick("APTUSDT", "2.2");
    const ids = [t1, t2, t3, t4, t5, u1, u2, u3].map((t) => t?.id as number);
    const left = async () =>
      (
        await pool.query<{ id: string }>("select id from contract_ticks where id = any($1) order by id", [
          ids,
        ])
      ).rows.map((r) => Number(r.id));
    // Within the retention period (30 days) nothing goes.
    await pruneContractTicks(db, new Date(clock.now.getTime() + 10 * 86_400_000));
    expect(await left()).toEqual(ids);
    // Later: an engine that has read only up to u1 keeps everything after it.
    await pool.query("update contract_engine_cursor set tick_id = (select max(id) from contract_ticks)");
    await pool.query("update contract_engine_cursor set tick_id = $1 where name = 'retention'", [u1?.id]);
    const later = new Date(clock.now.getTime() + 60 * 86_400_000);
    await pruneContractTicks(db, later);
    // t1: nobody's; t2, t3: the closed position's opening and closing ticks; t4 on: the open short's path.
    expect(await left()).toEqual([t2, t3, t4, t5, u1, u2, u3].map((t) => t?.id));
    await pool.query("update contract_engine_cursor set tick_id = (select max(id) from contract_ticks)");
    await pruneContractTicks(db, later);
    // u3 stays: an instrument's latest tick.
    expect(await left()).toEqual([t2, t3, t4, t5, u3].map((t) => t?.id));
    expect(await pruneContractTicks(db, later)).toEqual({ deleted: 0 });
    await reconciled();
  });
});

describe("overnight interest", () => {
  it("charges each holding position once per day, catching up days missed", async () => {
    const user = await newContractUser(db, "10000");
    await tick("UNIUSDT", "10");
    const p = await open(user, { symbol: "UNIUSDT", side: "long", lots: "100", leverage: 10 });
    const opened = clock.now;
    // Three days later: three days are due (the due instants at 00:00 UTC after the opening).
    const later = new Date(opened.getTime() + 3 * 86_400_000);
    const due = (await dueOvernightCharges(db, later)).filter((d) => d.positionId === p.id);
    expect(due.map((d) => d.day)).toEqual(["2026-01-08", "2026-01-09", "2026-01-10"]);
    for (const d of due) {
      expect(await chargeOvernight(db, p.id, d.day, later)).toBe("charged");
      expect(await chargeOvernight(db, p.id, d.day, later)).toBe("already");
    }
    expect((await dueOvernightCharges(db, later)).filter((d) => d.positionId === p.id)).toEqual([]);
    // 10 × 100 × 0.0003 = 0.3 a day, from the margin of 100.
    const { position } = await getContractPosition(db, user, p.id);
    expect(position).toMatchObject({ margin: "99.1", overnight_total: "0.9" });
    await reconciled();
  });
});

describe("where each price came from", () => {
  /** A tick as the worker's recorder stores it: with its source, source symbol and time, id, receive time. */
  const sourced = async (symbol: string, price: string) => {
    const time = advance(100).getTime();
    const [row] = await recordContractTicks(db, [
      {
        symbol,
        price,
        time,
        source: "binance",
        sourceSymbol: symbol.replace(/USDT$/, "/USDT"),
        sourceTime: time - 3,
        sourceId: `trade-${time}`,
        receivedAt: time + 20,
      },
    ]);
    return row as NonNullable<typeof row>;
  };
  const provenance = async (tickId: number | null | undefined) => {
    const rows = await pool.query(
      "select source, source_symbol, source_time, source_id, received_at from contract_ticks where id = $1",
      [tickId],
    );
    return rows.rows[0];
  };

  it("a market open, a limit fill, a liquidation and an overnight charge each keep a tick whose source is recorded", async () => {
    const engine = new ContractRiskEngine(db, { name: "provenance" });
    await engine.start();
    const user = await newContractUser(db, "100000");
    const other = await newContractUser(db, "100");
    const openTick = await sourced("DOTUSDT", "10");
    await sourced("DOGEUSDT", "1");
    await sourced("UNIUSDT", "10");
    const liq = await open(user, { symbol: "DOTUSDT", side: "long", lots: "10", leverage: 20 });
    const limit = await open(user, {
      symbol: "DOGEUSDT",
      side: "long",
      order_type: "limit",
      price: "0.9",
      lots: "100",
      leverage: 10,
    });
    const held = await open(user, { symbol: "UNIUSDT", side: "long", lots: "1", leverage: 10 });
    const markTick = await sourced("UNIUSDT", "10.5");
    await engine.drain();
    const fillTick = await sourced("DOGEUSDT", "0.89");
    const liqTick = await sourced("DOTUSDT", "9.5");
    await engine.drain();

    const rowOf = async (id: number) =>
      (await db.select().from(contractPositions).where(eq(contractPositions.id, id)))[0];
    expect((await rowOf(liq.id))?.openTickId).toBe(openTick.id);
    expect((await rowOf(limit.id))?.openTickId).toBe(fillTick.id);
    expect((await getContractPosition(db, user, limit.id)).position.entry_price).toBe("0.89");
    const liquidated = await getContractPosition(db, user, liq.id);
    expect(liquidated.position).toMatchObject({ status: "liquidated", exit_price: "9.5" });
    expect(liquidated.closes[0]?.tick_id).toBe(liqTick.id);
    expect(liquidated.position.close_source).toEqual({
      id: liqTick.id,
      price: "9.5",
      time: liqTick.time.toISOString(),
      source: "binance",
      source_time: new Date(liqTick.time.getTime() - 3).toISOString(),
    });

    const day = (await dueOvernightCharges(db, new Date(clock.now.getTime() + 86_400_000))).find(
      (d) => d.positionId === held.id,
    )?.day as string;
    expect(await chargeOvernight(db, held.id, day, new Date(clock.now.getTime() + 86_400_000))).toBe(
      "charged",
    );
    const charge = await pool.query(
      "select tick_id, price::text from contract_overnight where position_id = $1",
      [held.id],
    );
    expect(Number(charge.rows[0]?.tick_id)).toBe(markTick.id);

    for (const id of [openTick.id, fillTick.id, liqTick.id, markTick.id]) {
      const p = await provenance(id);
      expect(p?.source).toBe("binance");
      expect(p?.source_symbol).toMatch(/\/USDT$/);
      expect(p?.source_time).toBeInstanceOf(Date);
      expect(p?.source_id).toMatch(/^trade-/);
      expect(p?.received_at).toBeInstanceOf(Date);
    }

    // The ticks a minute around the liquidation, to its owner only.
    const around = await contractPositionTicks(db, user, liq.id);
    expect(around.tick_id).toBe(liqTick.id);
    // Every DOTUSDT tick within a minute of it (earlier tests of this file record some too), in time order.
    const window = await pool.query(
      `select id from contract_ticks where symbol = 'DOTUSDT'
         and time between $1::timestamptz - interval '60 seconds' and $1::timestamptz + interval '60 seconds'
       order by time, id`,
      [liqTick.time],
    );
    expect(around.ticks.map((t) => t.id)).toEqual(window.rows.map((r) => Number(r.id)));
    expect(around.ticks.map((t) => t.id)).toEqual(expect.arrayContaining([openTick.id, liqTick.id]));
    expect(around.ticks.find((t) => t.id === liqTick.id)).toMatchObject({
      source: "binance",
      source_id: `trade-${liqTick.time.getTime()}`,
    });
    expect(await refused(contractPositionTicks(db, other, liq.id))).toMatchObject({
      code: "CONTRACT_NOT_FOUND",
    });
    await reconciled();
  });
});
