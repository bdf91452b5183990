import { MoneyDecimal } from "@northstar/shared/money";
import { verifyLiabilityProof } from "@northstar/shared/proofs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type Db } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { postEntry, reconcileLedger, userLiabilities } from "../ledger/index.ts";
import { seedDatabase } from "../setup/index.ts";
import { createTrader } from "../spot/testing.ts";
import { createTestDatabase } from "../test-support/index.ts";
import { getMyProof, listProofs, publishDailyProof, publishProof } from "./index.ts";

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
});
