import { MoneyDecimal } from "@northstar/shared/money";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type Db } from "../db/client.ts";
import type { User } from "../identity/index.ts";
import { postEntry, reconcileLedger } from "../ledger/index.ts";
import { setPolicy } from "../policy/index.ts";
import { seedDatabase } from "../setup/index.ts";
import { balanceOf as balances, createTrader } from "../spot/testing.ts";
import { createTestDatabase } from "../test-support/index.ts";
import { getPromotion, listReferralPayouts, runReferralDay, runReferralRewards } from "./index.ts";

/*
 * Referral rewards from recorded fee postings: four levels to the unit of the currency, each day
 * once however often the job runs, never above the fee, catching up missed days.
 */
let db: Db;
let close: () => Promise<void>;

beforeAll(async () => {
  const database = await createTestDatabase();
  const conn = createDb(database.url, { max: 10 });
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

let seq = 0;
const balanceOf = async (d: Db, user: User, currency: string) =>
  (await balances(d, user, currency)).available;
const invite = (inviter: User, invitee: User) =>
  db.execute(sql`update users set invited_by = ${inviter.id} where id = ${invitee.id}`);

/** When an entry was written: moved to `at`, as if recorded then. */
const at = (entryKey: string, when: string) =>
  db.execute(
    sql`update journal_entries set created_at = ${when}::timestamptz where idempotency_key = ${entryKey}`,
  );

/**
 * A spot fill as the matcher writes it: the buyer gives quote from its hold and receives base less
 * its fee (in base); the seller gives base from its hold and receives quote less its fee (in quote).
 */
async function spotFill(
  buyer: User,
  seller: User,
  qty: string,
  price: string,
  buyFee: string,
  sellFee: string,
  when: string,
) {
  const key = `test:spot:${++seq}`;
  const quote = new MoneyDecimal(qty).times(price).toFixed();
  await db.transaction(async (tx) => {
    for (const [user, currency, amount] of [
      [buyer, "USDT", quote],
      [seller, "BTC", qty],
    ] as const) {
      await postEntry(tx, {
        idempotencyKey: `${key}:hold:${currency}`,
        kind: "spot.hold",
        reference: { type: "test", id: key },
        postings: [
          { account: { userId: user.id, book: "real", wallet: "exchange", currency }, amount: `-${amount}` },
          {
            account: { userId: user.id, book: "real", wallet: "exchange", currency, bucket: "held" },
            amount,
          },
        ],
      });
    }
    await postEntry(tx, {
      idempotencyKey: key,
      kind: "spot.trade",
      reference: { type: "spot_trade", id: seq },
      postings: [
        {
          account: { userId: buyer.id, book: "real", wallet: "exchange", currency: "USDT", bucket: "held" },
          amount: `-${quote}`,
        },
        {
          account: { userId: buyer.id, book: "real", wallet: "exchange", currency: "BTC" },
          amount: new MoneyDecimal(qty).minus(buyFee).toFixed(),
        },
        { account: { system: "fees", book: "real", currency: "BTC" }, amount: buyFee },
        {
          account: { userId: seller.id, book: "real", wallet: "exchange", currency: "BTC", bucket: "held" },
          amount: `-${qty}`,
        },
        {
          account: { userId: seller.id, book: "real", wallet: "exchange", currency: "USDT" },
          amount: new MoneyDecimal(quote).minus(sellFee).toFixed(),
        },
        { account: { system: "fees", book: "real", currency: "USDT" }, amount: sellFee },
      ],
    });
  });
  await at(key, when);
}

/** A contract opened at market: margin held, the fee to the fee account. */
async function contractOpen(user: User, margin: string, fee: string, when: string) {
  const key = `test:contract:${++seq}`;
  await postEntry(db, {
    idempotencyKey: key,
    kind: "contract.open",
    reference: { type: "contract_position", id: seq },
    postings: [
      {
        account: { userId: user.id, book: "real", wallet: "exchange", currency: "USDT" },
        amount: `-${new MoneyDecimal(margin).plus(fee).toFixed()}`,
      },
      {
        account: { userId: user.id, book: "real", wallet: "exchange", currency: "USDT", bucket: "held" },
        amount: margin,
      },
      { account: { system: "fees", book: "real", currency: "USDT" }, amount: fee },
    ],
  });
  await at(key, when);
}

/** A withdrawal fee also goes to the fee account, but it is no trading fee: it earns no reward. */
async function withdrawalFee(user: User, fee: string, when: string) {
  const key = `test:withdrawal:${++seq}`;
  await postEntry(db, {
    idempotencyKey: key,
    kind: "withdrawal.approve",
    reference: { type: "withdrawal", id: seq },
    postings: [
      { account: { userId: user.id, book: "real", wallet: "exchange", currency: "USDT" }, amount: `-${fee}` },
      { account: { system: "fees", book: "real", currency: "USDT" }, amount: fee },
    ],
  });
  await at(key, when);
}

const feesBalance = async (currency: string) => {
  const r = await db.execute<{ balance: string }>(
    sql`select balance::text from ledger_accounts where system_code = 'fees' and book = 'real' and currency = ${currency}`,
  );
  return new MoneyDecimal(r.rows[0]?.balance ?? "0").toFixed();
};

describe("referral rewards", () => {
  it("pays four levels of inviters their share of a day's trading fees, to the unit, once per day", async () => {
    // a ← b ← c ← d ← e ← f (a invited b, …, e invited f); g, invited by a, trades with f.
    const [a, b, c, d, e, f, g] = await Promise.all(
      Array.from({ length: 7 }, () => createTrader(db, { USDT: "100000", BTC: "10" })),
    );
    const chain = [a, b, c, d, e, f] as User[];
    for (let i = 1; i < chain.length; i++) {
      await invite(chain[i - 1] as User, chain[i] as User);
    }
    await invite(a as User, g as User);
    // 3 May: f sells 0.5 BTC at 20740 (fee 10.37 USDT) to g (fee 0.0005 BTC), opens a contract
    // (fee 1.25 USDT) and withdraws (fee 5 USDT: not a trading fee). 4 May: f pays 2 USDT more.
    await spotFill(g as User, f as User, "0.5", "20740", "0.0005", "10.37", "2026-05-03T08:00:00Z");
    await contractOpen(f as User, "100", "1.25", "2026-05-03T23:59:59Z");
    await withdrawalFee(f as User, "5", "2026-05-03T12:00:00Z");
    await contractOpen(f as User, "50", "2", "2026-05-04T00:00:00Z");
    const before = await Promise.all(chain.map((u) => balanceOf(db, u, "USDT")));
    const feesBefore = await feesBalance("USDT");

    const now = new Date("2026-05-04T00:15:00Z");
    await expect(runReferralDay(db, "2026-05-04", now)).rejects.toMatchObject({
      code: "REFERRAL_DAY_NOT_ENDED",
    });
    const [first, second] = await Promise.all([
      runReferralDay(db, "2026-05-03", now),
      runReferralDay(db, "2026-05-03", now),
    ]);
    expect([first.applied, second.applied].sort()).toEqual([false, true]);
    // f paid 11.62 USDT of trading fees on 3 May: e 20% = 2.324, d 10% = 1.162, c 5% = 0.581,
    // b 2% = 0.2324; a, five levels up, nothing from f; a earns 20% of g's 0.0005 BTC = 0.0001 BTC.
    const after = await Promise.all(chain.map((u) => balanceOf(db, u, "USDT")));
    const gained = after.map((v, i) => new MoneyDecimal(v).minus(before[i] as string).toFixed());
    expect(gained).toEqual(["0", "0.2324", "0.581", "1.162", "2.324", "0"]);
    expect(await balanceOf(db, a as User, "BTC")).toBe("10.0001");
    const paid = new MoneyDecimal("0.2324").plus("0.581").plus("1.162").plus("2.324");
    expect(paid.lessThanOrEqualTo("11.62")).toBe(true);
    expect(await feesBalance("USDT")).toBe(new MoneyDecimal(feesBefore).minus(paid).toFixed());

    // Run again, and by the job (which pays up to yesterday): nothing more for 3 May.
    expect((await runReferralDay(db, "2026-05-03", now)).applied).toBe(false);
    expect((await runReferralRewards(db, now)).days).toEqual([]);
    expect(await balanceOf(db, e as User, "USDT")).toBe(after[4]);

    // The invitation figures: b sees c at level 1, d at 2, e at 3, f at 4; income at level 4.
    const promo = await getPromotion(db, (b as User).id, "https://example.test");
    expect(promo.levels.map((l) => l.count)).toEqual([1, 1, 1, 1]);
    expect(promo.levels.map((l) => l.rate)).toEqual(["0.2", "0.1", "0.05", "0.02"]);
    expect(promo.levels[3]?.income).toEqual([{ currency: "USDT", amount: "0.2324" }]);
    expect(promo.link).toBe(`https://example.test/register?code=${(b as User).inviteCode}`);
    const aPromo = await getPromotion(db, (a as User).id, "https://example.test");
    expect(aPromo.levels.map((l) => l.count)).toEqual([2, 1, 1, 1]);
    expect(aPromo.levels[0]?.income).toEqual([{ currency: "BTC", amount: "0.0001" }]);
    const payouts = await listReferralPayouts(db, { day: "2026-05-03", page: 1, pageSize: 50 });
    expect(payouts.items).toHaveLength(5);
    expect(payouts.runs[0]).toMatchObject({ day: "2026-05-03", rewards: 5 });

    // Down from 4 May until 7 May: the start-up run pays 4, 5 and 6 May, each once.
    const later = new Date("2026-05-07T03:00:00Z");
    const caught = await runReferralRewards(db, later);
    expect(caught.days).toEqual(["2026-05-04", "2026-05-05", "2026-05-06"]);
    // f's 2 USDT of 4 May: e 0.4, d 0.2, c 0.1, b 0.04.
    expect(new MoneyDecimal(await balanceOf(db, e as User, "USDT")).minus(after[4] as string).toFixed()).toBe(
      "0.4",
    );
    expect(new MoneyDecimal(await balanceOf(db, b as User, "USDT")).minus(after[1] as string).toFixed()).toBe(
      "0.04",
    );
    expect((await runReferralRewards(db, later)).days).toEqual([]);
    expect((await reconcileLedger(db)).ok).toBe(true);
  });

  it("never pays more than the fee, whatever the rates, and rounds each share down", async () => {
    await setPolicy(db, "referral.levelRates", ["0.5", "0.3", "0.2"], "test");
    await expect(setPolicy(db, "referral.levelRates", ["0.6", "0.3", "0.2"], "test")).rejects.toThrow();
    const [x, y, z, w, m] = await Promise.all(
      Array.from({ length: 5 }, () => createTrader(db, { USDT: "1000", BTC: "1" })),
    );
    await invite(x as User, y as User);
    await invite(y as User, z as User);
    await invite(z as User, w as User);
    // w pays 0.000001 USDT (one unit): 50% of it rounds down to nothing; then 0.000007.
    await contractOpen(w as User, "1", "0.000001", "2026-05-08T10:00:00Z");
    await contractOpen(w as User, "1", "0.000006", "2026-05-08T11:00:00Z");
    await spotFill(m as User, m as User, "0.001", "1", "0.00000001", "0.000001", "2026-05-09T10:00:00Z");
    const before = await Promise.all([x, y, z].map((u) => balanceOf(db, u as User, "USDT")));
    const result = await runReferralRewards(db, new Date("2026-05-10T00:20:00Z"));
    expect(result.days).toEqual(["2026-05-07", "2026-05-08", "2026-05-09"]);
    const after = await Promise.all([x, y, z].map((u) => balanceOf(db, u as User, "USDT")));
    // 0.000007: z (level 1) 0.0000035 → 0.000003; y 0.0000021 → 0.000002; x 0.0000014 → 0.000001.
    expect(after.map((v, i) => new MoneyDecimal(v).minus(before[i] as string).toFixed())).toEqual([
      "0.000001",
      "0.000002",
      "0.000003",
    ]);
    await setPolicy(db, "referral.levelRates", ["0.2", "0.1", "0.05", "0.02"], "test");
    expect((await reconcileLedger(db)).ok).toBe(true);
  });
});
