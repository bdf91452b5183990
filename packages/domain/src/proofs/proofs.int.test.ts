import { randomBytes } from "node:crypto";
import { ZOpenContractRequestSchema } from "@northstar/shared/contracts/contracts";
import { ZBuyOptionRequestSchema } from "@northstar/shared/contracts/options";
import { MoneyDecimal } from "@northstar/shared/money";
import { PROOF_BUCKETS, verifyLiabilityProof } from "@northstar/shared/proofs";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createC2cOrder, createMerchant, moveMerchantStock } from "../c2c/index.ts";
import { createC2cUser } from "../c2c/testing.ts";
import { openContractPosition, recordContractTicks } from "../contracts/index.ts";
import { createDb, type Db } from "../db/client.ts";
import { buyProduct, createProduct, earnOrders, settleOrder } from "../earn/index.ts";
import { AppError } from "../errors.ts";
import { addWithdrawalAddress, applyWithdrawal } from "../funding/index.ts";
import { hashSecret, type User, users } from "../identity/index.ts";
import { allocateOffering, createOffering, subscribe } from "../launchpad/index.ts";
import { getUserBalances, holdFunds, postEntry, reconcileLedger, userLiabilities } from "../ledger/index.ts";
import { createFixedPriceProvider } from "../markets/index.ts";
import { buyOption, recordTicks } from "../options/index.ts";
import { setPolicy } from "../policy/index.ts";
import { seedDatabase } from "../setup/index.ts";
import { createTrader } from "../spot/testing.ts";
import { createTestDatabase } from "../test-support/index.ts";
import {
  getAssetsOverview,
  getMyProof,
  liabilityProofLeaves,
  listProofs,
  publishDailyProof,
  publishProof,
} from "./index.ts";

/** The proof of liabilities against a real database, with transfers running while it snapshots. */
let db: Db;
let teardown: () => Promise<void>;
beforeAll(async () => {
  const database = await createTestDatabase();
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

const totalOf = async (currency: string) =>
  (await userLiabilities(db, "real"))
    .filter((r) => r.currency === currency)
    .reduce((s, r) => s.plus(r.total), new MoneyDecimal(0))
    .toFixed();

describe("proof of liabilities", () => {
  it("publishes totals equal to the ledger's, consistent while users pay each other, and every user's proof verifies", async () => {
    const users = await Promise.all(
      Array.from({ length: 24 }, (_, i) => createTrader(db, { USDT: `${1000 + i}.5`, BTC: `0.0${i + 1}` })),
    );
    const demo = await createTrader(db, { USDT: "50000" }, "demo");
    const usdt = await totalOf("USDT");
    // 300 payments between users, from one user's exchange wallet to another's option wallet, while
    // three proofs are published: user totals never change, so each proof must show the same total.
    let k = 0;
    const payments = Array.from({ length: 300 }, async () => {
      const i = k++;
      const from = users[i % users.length];
      const to = users[(i * 7 + 3) % users.length];
      if (!from || !to || from.id === to.id) {
        return;
      }
      await postEntry(db, {
        idempotencyKey: `test-pay:${i}`,
        kind: "test.pay",
        reference: { type: "test", id: i },
        postings: [
          {
            account: { userId: from.id, book: "real", wallet: "exchange", currency: "USDT" },
            amount: "-1.25",
          },
          { account: { userId: to.id, book: "real", wallet: "option", currency: "USDT" }, amount: "1.25" },
        ],
      });
    });
    const proofs = await Promise.all([
      publishProof(db, "test"),
      publishProof(db, "test"),
      publishProof(db, "test"),
      ...payments,
    ]).then((r) => r.slice(0, 3) as Awaited<ReturnType<typeof publishProof>>[]);
    for (const proof of proofs) {
      expect(proof.totals.find((t) => t.currency === "USDT")?.total).toBe(usdt);
      expect(proof.leafCount).toBe(
        (await userLiabilities(db, "real")).reduce((s, r) => s.add(r.userId), new Set<number>()).size,
      );
    }
    // The published totals are the ledger's user liabilities (reconcile's users column).
    const report = await reconcileLedger(db);
    expect(report.ok).toBe(true);
    const ledgerUsers = report.totals.filter((t) => t.book === "real");
    const latest = (await listProofs(db))[0];
    for (const t of latest?.totals ?? []) {
      expect(
        new MoneyDecimal(ledgerUsers.find((l) => l.currency === t.currency)?.users ?? "x").equals(t.total),
      ).toBe(true);
    }
    // Each user's own proof recomputes the root; the demo account is in none.
    for (const user of users) {
      const mine = await getMyProof(db, user.id, latest?.id);
      expect(verifyLiabilityProof(mine)).toMatchObject({ ok: true });
      const usdtIndex = mine.currencies.indexOf("USDT");
      expect(new MoneyDecimal(mine.leaf.balances[usdtIndex] ?? "0").gt(0)).toBe(true);
    }
    await expect(getMyProof(db, demo.id)).rejects.toBeInstanceOf(AppError);
    await expect(getMyProof(db, demo.id)).rejects.toMatchObject({ code: "PROOF_NOT_FOUND" });
    // A stored proof changed by one cent no longer verifies.
    const one = await getMyProof(db, users[0]?.id ?? 0, latest?.id);
    const i = one.currencies.indexOf("USDT");
    const balances = [...one.leaf.balances];
    balances[i] = new MoneyDecimal(balances[i] ?? "0").plus("0.01").toFixed();
    expect(verifyLiabilityProof({ ...one, leaf: { ...one.leaf, balances } })).toMatchObject({ ok: false });
  });

  it("the daily run publishes once per day, however often it runs", async () => {
    const day = new Date("2031-05-05T00:05:00Z");
    const runs = await Promise.all([
      publishDailyProof(db, day),
      publishDailyProof(db, day),
      publishDailyProof(db, day),
    ]);
    expect(runs.filter((r) => r !== null)).toHaveLength(1);
    expect(await publishDailyProof(db, new Date("2031-05-05T23:00:00Z"))).toBeNull();
    expect(await publishDailyProof(db, new Date("2031-05-06T00:05:00Z"))).not.toBeNull();
  });

  it("a user's leaf holds every claim by bucket, and the totals equal the ledger's user claims", async () => {
    await setPolicy(
      db,
      "kyc.risk.maxPerOrderUsdt",
      { notAssessed: "1000000", conservative: "1000000", balanced: "1000000", aggressive: "1000000" },
      "test",
    );
    await setPolicy(db, "kyc.risk.unassessedMayBuy", "aggressive", "test");
    const prices = createFixedPriceProvider();
    // One real user with primary KYC (for C2C) and a trade password (for the withdrawal).
    const created = await createC2cUser(db);
    await db
      .update(users)
      .set({ tradePasswordHash: await hashSecret("123456") })
      .where(eq(users.id, created.id));
    const [user] = (await db.select().from(users).where(eq(users.id, created.id))) as User[];
    if (!user) {
      throw new Error("no user");
    }
    const grant = (wallet: "exchange" | "contract" | "option", currency: string, amount: string) =>
      postEntry(db, {
        idempotencyKey: `test-grant:${user.id}:${wallet}:${currency}`,
        kind: "test.grant",
        reference: { type: "user", id: user.id },
        postings: [
          { account: { system: "house", book: "real", currency }, amount: `-${amount}` },
          { account: { userId: user.id, book: "real", wallet, currency }, amount },
        ],
      });
    await grant("exchange", "USDT", "2000");
    await grant("exchange", "BTC", "0.25");
    await grant("contract", "USDT", "2000");
    await grant("option", "USDT", "300");

    // Earn: 500 USDT in custody from 2026-01-04; day 1 paid by the job, days 2 and 3 accrued (2 a day).
    const product = await createProduct(
      db,
      {
        family: "ai",
        name: "Proof AI 7",
        currency: "USDT",
        cycle_days: 7,
        rate_min: "0.004",
        rate_max: "0.004",
        min_amount: "100",
        max_amount: "10000",
        user_limit: "20000",
        user_count: 5,
        capacity: "1000000",
        risk_level: "balanced",
        redemption_rule: "percent",
      },
      "test",
    );
    const bought = await buyProduct(
      db,
      prices,
      user,
      { product_id: product.id, amount: "500" },
      new Date("2026-01-04T10:00:00Z"),
    );
    expect(await settleOrder(db, bought.id, new Date("2026-01-05T01:00:00Z"))).toBe(1);

    // A contract: 0.1 lots long at 90000, 10x: 900 margin held, 4.5 fee (a Wednesday, markets open).
    const t0 = new Date("2026-01-07T15:00:00Z");
    await recordContractTicks(db, [{ symbol: "BTCUSDT", price: "90000", time: t0.getTime() - 500 }]);
    const position = await openContractPosition(
      { db, now: () => t0 },
      user,
      ZOpenContractRequestSchema.parse({ symbol: "BTCUSDT", side: "long", lots: "0.1", leverage: 10 }),
    );
    expect(position.margin).toBe("900");

    // An open option: 100 USDT staked, its fee the platform's.
    await recordTicks(db, [{ symbol: "BTCUSDT", price: "90001.25", time: t0.getTime() - 400 }]);
    const option = await buyOption(
      { db, now: () => t0 },
      user,
      ZBuyOptionRequestSchema.parse({
        symbol: "BTCUSDT",
        direction: "up",
        amount: "100",
        period_seconds: 60,
      }),
    );
    expect(option.amount).toBe("100");

    // Launchpad: one subscription under review (50 USDT frozen), one allocated whose 100 coins are locked.
    const offering = (coin: string) =>
      createOffering(
        db,
        {
          coin,
          name: "Proof coin",
          pay_currency: "USDT",
          issue_price: "0.6",
          subscribe_price: "0.5",
          total_quantity: "1000",
          min_quantity: "10",
          max_quantity: "1000",
          starts_at: new Date("2026-01-01T00:00:00Z"),
          ends_at: new Date("2026-01-06T00:00:00Z"),
          lock_days: 30,
          listing_day: "2026-01-10",
          circulation: "100000000",
        },
        "test",
      );
    const coin = `P${randomBytes(2).toString("hex").toUpperCase()}`;
    const reviewing = await offering(`Q${randomBytes(2).toString("hex").toUpperCase()}`);
    const allocated = await offering(coin);
    const during = new Date("2026-01-02T12:00:00Z");
    await subscribe(db, user, { offering_id: reviewing.id, quantity: "100" }, during);
    await subscribe(db, user, { offering_id: allocated.id, quantity: "100" }, during);
    await allocateOffering(db, allocated.id, "test", new Date("2026-01-06T00:00:00Z"));

    // C2C: 720 CNY for 100 USDT, matched: the coins reserved in the merchant's escrow for the user.
    const merchant = await createMerchant(
      db,
      {
        name: "Proof merchant",
        coin: "USDT",
        fiat: "CNY",
        price: "7.2",
        min_fiat: "100",
        max_fiat: "50000",
        payee_name: "Li Wei",
        bank_name: "Bank of Test",
        bank_account: "6222 0000 1111 2222",
        bank_branch: "Main branch",
        note: "",
      },
      "op:test",
    );
    await moveMerchantStock(db, "fund", { merchant_id: merchant.id, amount: "1000" }, "op:test");
    const c2c = await createC2cOrder({ db, now: () => t0 }, user, {
      merchant_id: merchant.id,
      coin: "USDT",
      mode: "fiat",
      amount: "720",
    });
    expect(c2c).toMatchObject({ status: "matched", coinAmount: "100" });

    // A pending withdrawal of 100 USDT (13:00 Hong Kong time), and 20.5 USDT held by an open order.
    const address = await addWithdrawalAddress(db, user, {
      currency: "USDT",
      chain: "ERC20",
      address: "0x52908400098527886E0F7030069857D2E4169EE7",
    });
    await applyWithdrawal(
      db,
      prices,
      user,
      {
        method: "crypto",
        currency: "USDT",
        address_id: address?.id ?? 0,
        amount: "100",
        trade_password: "123456",
        google_code: undefined,
      },
      new Date("2026-01-07T05:00:00Z"),
    );
    await holdFunds(db, {
      userId: user.id,
      book: "real",
      wallet: "exchange",
      currency: "USDT",
      amount: "20.5",
      idempotencyKey: `test-hold:${user.id}`,
      kind: "test.hold",
      reference: { type: "test", id: user.id },
    });

    // The ledger as the user sees it: exchange 2000 − 500 + 2 − 50 − 50 − 100 − 20.5, held 50 + 100 + 20.5.
    const wallets = await getUserBalances(db, user.id, "real");
    const wallet = (w: string, c = "USDT") => wallets.find((b) => b.wallet === w && b.currency === c);
    expect(new MoneyDecimal(wallet("exchange")?.available ?? "x").toFixed()).toBe("1281.5");
    expect(new MoneyDecimal(wallet("exchange")?.held ?? "x").toFixed()).toBe("170.5");
    expect(new MoneyDecimal(wallet("exchange", coin)?.held ?? "x").toFixed()).toBe("100");
    const optionLeft = new MoneyDecimal(wallet("option")?.available ?? "x");
    expect(optionLeft.toFixed()).toBe(new MoneyDecimal(200).minus(option.fee).toFixed());

    const proof = await publishProof(db, "test", new Date("2026-01-07T16:00:00Z"));
    const mine = await getMyProof(db, user.id, proof.id);
    expect(verifyLiabilityProof(mine)).toMatchObject({ ok: true });
    expect(mine.version).toBe(2);
    expect(mine.buckets).toEqual([...PROOF_BUCKETS]);
    const amount = (bucket: string, currency = "USDT") =>
      new MoneyDecimal(
        mine.leaf.breakdown?.[mine.buckets?.indexOf(bucket) ?? -1]?.[mine.currencies.indexOf(currency)] ??
          "x",
      ).toFixed();
    const available = new MoneyDecimal("1281.5").plus("1095.5").plus(optionLeft).toFixed();
    expect({
      available: amount("available"),
      held: amount("held"),
      contract_margin: amount("contract_margin"),
      earn_principal: amount("earn_principal"),
      earn_yield: amount("earn_yield"),
      option_stake: amount("option_stake"),
      launchpad: amount("launchpad"),
      c2c: amount("c2c"),
      withdrawal: amount("withdrawal"),
    }).toEqual({
      available,
      held: "20.5",
      contract_margin: "900",
      earn_principal: "500",
      earn_yield: "4",
      option_stake: "100",
      launchpad: "50",
      c2c: "100",
      withdrawal: "100",
    });
    expect(amount("launchpad", coin)).toBe("100");
    expect(amount("available", "BTC")).toBe("0.25");
    const usdt = mine.currencies.indexOf("USDT");
    expect(mine.leaf.balances[usdt]).toBe(
      new MoneyDecimal(available)
        .plus("20.5")
        .plus(900)
        .plus(500)
        .plus(4)
        .plus(100)
        .plus(50)
        .plus(100)
        .plus(100)
        .toFixed(),
    );

    // The assets page reads the very rows the proof reads: for this user, who holds something in
    // every bucket, its breakdown equals the leaf bucket by bucket and currency by currency, to the
    // last decimal, and its USDT total values every bucket (the unlisted coin has no price yet).
    const overview = await getAssetsOverview(db, prices, user, new Date("2026-01-07T16:00:00Z"));
    const owned = mine.currencies.filter((_, i) => !new MoneyDecimal(mine.leaf.balances[i] ?? "0").isZero());
    expect(overview.holdings.map((h) => h.currency).sort()).toEqual([...owned].sort());
    for (const holding of overview.holdings) {
      const i = mine.currencies.indexOf(holding.currency);
      expect(holding.total).toBe(mine.leaf.balances[i]);
      expect(PROOF_BUCKETS.map((b) => holding.buckets[b])).toEqual(
        PROOF_BUCKETS.map((_, b) => mine.leaf.breakdown?.[b]?.[i]),
      );
    }
    expect(overview.holdings.find((h) => h.currency === coin)?.buckets.launchpad).toBe("100");
    expect(overview.unpriced).toEqual([coin]);
    expect(overview.valuation).toBe("platform_last_price");
    expect(overview.totalUsdt).toBe(
      new MoneyDecimal(mine.leaf.balances[usdt] ?? "x")
        .plus(new MoneyDecimal("0.25").times(90000))
        .toFixed(2),
    );

    // The tree's totals are the ledger's user claims: every user account, the claims held in system
    // accounts (earn custody, C2C reservations, open option stakes) and the yield accrued, not yet paid.
    const ledgerClaims = async (currency: string) => {
      const r = await db.execute<{ total: string }>(sql`
        select (
          (select coalesce(sum(balance), 0) from ledger_accounts where user_id is not null and book = 'real' and currency = ${currency})
          + (select coalesce(sum(balance), 0) from ledger_accounts where system_code = 'earn_custody' and book = 'real' and currency = ${currency})
          + (select coalesce(sum(balance), 0) from ledger_accounts where system_code like 'c2c_reserved:%' and book = 'real' and currency = ${currency})
          + (select coalesce(sum(amount), 0) from option_orders where status = 'open' and book = 'real' and ${currency} = 'USDT')
        )::text as total`);
      return new MoneyDecimal(r.rows[0]?.total ?? "x");
    };
    expect(proof.totals.find((t) => t.currency === "USDT")?.total).toBe(
      (await ledgerClaims("USDT")).plus(4).toFixed(),
    );
    expect(proof.totals.find((t) => t.currency === coin)?.total).toBe((await ledgerClaims(coin)).toFixed());
    expect(proof.totals.find((t) => t.currency === "BTC")?.total).toBe((await ledgerClaims("BTC")).toFixed());
    const byBucket = proof.totals.find((t) => t.currency === "USDT")?.buckets ?? [];
    expect(byBucket.find((b) => b.bucket === "earn_principal")?.amount).toBe("500");
    expect(byBucket.find((b) => b.bucket === "c2c")?.amount).toBe("100");

    // Reconciliation checks the same equality on a fresh computation and on the latest proof.
    const report = await reconcileLedger(db);
    expect(report.ok).toBe(true);
    expect(report.checks.map((c) => [c.name, c.ok])).toEqual([
      ["liabilities", true],
      ["latest-proof", true],
    ]);
    // An earn order whose principal differs from what custody holds, and a stored leaf changed after
    // publishing: reconciliation fails on each.
    await db.update(earnOrders).set({ amount: "501" }).where(eq(earnOrders.id, bought.id));
    const skewed = await reconcileLedger(db);
    expect(skewed.ok).toBe(false);
    expect(skewed.checks.find((c) => c.name === "liabilities")?.problems.join()).toContain("earn_custody");
    await expect(publishProof(db, "test", new Date("2026-01-07T17:00:00Z"))).rejects.toThrow(/earn_custody/);
    await db.update(earnOrders).set({ amount: "500" }).where(eq(earnOrders.id, bought.id));
    // The latest proof (after every other one of this file), its stored leaf changed.
    const latest = await publishProof(db, "test", new Date("2032-01-01T00:00:00Z"));
    const [leafRow] = await db
      .select()
      .from(liabilityProofLeaves)
      .where(
        sql`${liabilityProofLeaves.proofId} = ${latest.id} and ${liabilityProofLeaves.userId} = ${user.id}`,
      );
    const moved = (leafRow?.breakdown ?? []).map((r) => [...r]);
    (moved[0] as string[])[usdt] = new MoneyDecimal(moved[0]?.[usdt] ?? "0").plus(500).toFixed();
    (moved[3] as string[])[usdt] = "0";
    await db
      .update(liabilityProofLeaves)
      .set({ breakdown: moved })
      .where(
        sql`${liabilityProofLeaves.proofId} = ${latest.id} and ${liabilityProofLeaves.userId} = ${user.id}`,
      );
    const tampered = await reconcileLedger(db);
    expect(tampered.checks.map((c) => [c.name, c.ok])).toEqual([
      ["liabilities", true],
      ["latest-proof", false],
    ]);
    expect(verifyLiabilityProof(await getMyProof(db, user.id))).toMatchObject({ ok: false });
    await db
      .update(liabilityProofLeaves)
      .set({ breakdown: leafRow?.breakdown ?? null })
      .where(
        sql`${liabilityProofLeaves.proofId} = ${latest.id} and ${liabilityProofLeaves.userId} = ${user.id}`,
      );
    expect((await reconcileLedger(db)).ok).toBe(true);
  });
});
