import { MoneyDecimal } from "@northstar/shared/money";
import { sql } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type Db, type DbOrTx } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { createTestDatabase } from "../test-support/index.ts";
import { getUserBalances } from "./balances.ts";
import {
  type AccountRef,
  holdFunds,
  postEntries,
  postEntriesInTransaction,
  postEntry,
  releaseFunds,
} from "./post-entry.ts";
import { reconcileLedger } from "./reconcile.ts";
import { SYSTEM_ACCOUNT_RULES, type SystemCode, systemAccountRule } from "./system-accounts.ts";

let db: Db;
let teardown: () => Promise<void>;
beforeAll(async () => {
  const database = await createTestDatabase();
  const conn = createDb(database.url, { max: 60 });
  db = conn.db;
  teardown = async () => {
    await conn.close();
    await database.drop();
  };
});
afterAll(async () => {
  await teardown?.();
});

let seq = 0;
const key = (what: string) => `${what}:${++seq}`;
const user = (
  userId: number,
  currency: string,
  wallet: "exchange" | "contract" = "exchange",
  bucket: "available" | "held" = "available",
): AccountRef => ({
  userId,
  book: "real",
  wallet,
  currency,
  bucket,
});
const deposit = (userId: number, currency: string, amount: string, idempotencyKey = key("deposit")) =>
  postEntry(db, {
    idempotencyKey,
    kind: "deposit.confirm",
    reference: { type: "test", id: idempotencyKey },
    postings: [
      { account: { system: "deposit_clearing:crypto", book: "real", currency }, amount: `-${amount}` },
      { account: user(userId, currency), amount },
    ],
  });

describe("postEntry", () => {
  it("refuses entries that do not sum to zero, mix books, or carry bad amounts", async () => {
    const bad = [
      [
        { account: user(1, "USDT"), amount: "5" },
        { account: { system: "house" as const, book: "real" as const, currency: "USDT" }, amount: "-4" },
      ],
      [
        { account: user(1, "USDT"), amount: "5" },
        { account: { system: "house" as const, book: "demo" as const, currency: "USDT" }, amount: "-5" },
      ],
      [
        { account: user(1, "USDT"), amount: "1e3" },
        { account: { system: "house" as const, book: "real" as const, currency: "USDT" }, amount: "-1000" },
      ],
      [
        { account: user(1, "USDT"), amount: "0.0000000000000000001" },
        {
          account: { system: "house" as const, book: "real" as const, currency: "USDT" },
          amount: "-0.0000000000000000001",
        },
      ],
    ];
    for (const postings of bad) {
      await expect(
        postEntry(db, {
          idempotencyKey: key("bad"),
          kind: "test",
          reference: { type: "t", id: 1 },
          postings,
        }),
      ).rejects.toThrow();
    }
    expect(await getUserBalances(db, 1, "real")).toEqual([]);
  });

  it("applies an entry once per idempotency key", async () => {
    const k = key("once");
    const first = await deposit(2, "USDT", "100.5", k);
    const second = await deposit(2, "USDT", "100.5", k);
    expect(first.applied).toBe(true);
    expect(second).toEqual({ entryId: first.entryId, applied: false });
    expect(await getUserBalances(db, 2, "real")).toEqual([
      { wallet: "exchange", currency: "USDT", available: "100.500000000000000000", held: "0" },
    ]);
  });

  it("lists a user's balances by wallet and currency, however the rows lie in the table", async () => {
    const credit = (currency: string, wallet: "exchange" | "contract", amount: string) =>
      postEntry(db, {
        idempotencyKey: key("credit"),
        kind: "test",
        reference: { type: "t", id: 20 },
        postings: [
          { account: { system: "house", book: "real", currency }, amount: `-${amount}` },
          { account: user(20, currency, wallet), amount },
        ],
      });
    // Created out of order, then the earliest rows updated (their new versions are written after
    // the others): read in the table's physical order, the rows come back unsorted.
    await credit("USDT", "exchange", "10");
    await credit("BTC", "exchange", "1");
    await credit("USDT", "contract", "5");
    await credit("ETH", "contract", "2");
    await holdFunds(db, {
      idempotencyKey: key("hold"),
      kind: "test",
      reference: { type: "t", id: 20 },
      userId: 20,
      book: "real",
      wallet: "exchange",
      currency: "USDT",
      amount: "4",
    });
    await credit("USDT", "exchange", "1");
    await credit("BTC", "exchange", "1");
    const expected = ["contract:ETH", "contract:USDT", "exchange:BTC", "exchange:USDT"];
    const listed = (rows: Awaited<ReturnType<typeof getUserBalances>>) =>
      rows.map((b) => `${b.wallet}:${b.currency}`);
    expect(listed(await getUserBalances(db, 20, "real"))).toEqual(expected);
    // The planner may read the table in its physical order (a bigger table, other statistics).
    const physical = await db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_indexscan = off`);
      await tx.execute(sql`set local enable_indexonlyscan = off`);
      return getUserBalances(tx, 20, "real");
    });
    expect(listed(physical)).toEqual(expected);
  });

  it("posts a batch all or nothing, applying each key once and writing each balance_after in order", async () => {
    const house = { system: "house" as const, book: "real" as const, currency: "ETH" };
    const grant = (idempotencyKey: string, userId: number, amount: string) => ({
      idempotencyKey,
      kind: "test",
      reference: { type: "t", id: userId },
      postings: [
        { account: house, amount: `-${amount}` },
        { account: user(userId, "ETH"), amount },
      ],
    });
    const used = key("batch");
    await postEntries(db, [grant(used, 7, "1")]);
    const results = await postEntries(db, [
      grant(used, 7, "5"),
      grant(key("batch"), 7, "2"),
      grant(key("batch"), 8, "3"),
    ]);
    expect(results.map((r) => r.applied)).toEqual([false, true, true]);
    // A batch with one entry that would overdraw a user writes nothing at all.
    await expect(
      postEntries(db, [
        grant(key("batch"), 8, "10"),
        {
          ...grant(key("batch"), 7, "1"),
          postings: [
            { account: user(7, "ETH"), amount: "-4" },
            { account: house, amount: "4" },
          ],
        },
      ]),
    ).rejects.toThrow(AppError);
    expect((await getUserBalances(db, 7, "real"))[0]?.available).toBe("3.000000000000000000");
    expect((await getUserBalances(db, 8, "real"))[0]?.available).toBe("3.000000000000000000");
    const afters = await db.execute<{ balance_after: string }>(sql`
      select p.balance_after from postings p join ledger_accounts a on a.id = p.account_id
      where a.user_id = 7 and a.currency = 'ETH' order by p.id`);
    expect(afters.rows.map((r) => r.balance_after)).toEqual(["1.000000000000000000", "3.000000000000000000"]);
    expect((await reconcileLedger(db)).ok).toBe(true);
  });

  it("writes the same rows in the caller's transaction, and a refusal there rolls the whole of it back", async () => {
    const house = { system: "house" as const, book: "real" as const, currency: "SOL" };
    // The same entries, one user through postEntries and another through postEntriesInTransaction:
    // a repeated key, two postings on one account in one entry, and several entries on one account.
    const entries = (userId: number, tag: string) => {
      const once = `${tag}:once`;
      return [
        {
          idempotencyKey: once,
          kind: "test",
          reference: { type: "t", id: userId },
          postings: [
            { account: house, amount: "-5" },
            { account: user(userId, "SOL"), amount: "2" },
            { account: user(userId, "SOL"), amount: "3" },
          ],
        },
        {
          idempotencyKey: once,
          kind: "test",
          reference: { type: "t", id: userId },
          postings: [
            { account: house, amount: "-9" },
            { account: user(userId, "SOL"), amount: "9" },
          ],
        },
        {
          idempotencyKey: `${tag}:hold`,
          kind: "test.hold",
          reference: { type: "t", id: userId },
          memo: "held",
          postings: [
            { account: user(userId, "SOL"), amount: "-1.5" },
            { account: user(userId, "SOL", "exchange", "held"), amount: "1.5" },
          ],
        },
      ];
    };
    const saved = await postEntries(db, entries(41, key("same")));
    const direct = await db.transaction((tx) => postEntriesInTransaction(tx, entries(42, key("same"))));
    expect(direct.map((r) => r.applied)).toEqual([true, false, true]);
    expect(saved.map((r) => r.applied)).toEqual(direct.map((r) => r.applied));
    expect(direct[1]?.entryId).toBe(direct[0]?.entryId);
    const rows = async (userId: number) =>
      (
        await db.execute<Record<string, string>>(sql`
          select e.kind, e.memo, e.reference_id, a.bucket, p.amount, p.balance_after
          from postings p join journal_entries e on e.id = p.entry_id join ledger_accounts a on a.id = p.account_id
          where a.user_id = ${userId} and a.currency = 'SOL' order by p.id`)
      ).rows.map(({ reference_id: _ref, ...row }) => row);
    expect(await rows(42)).toEqual(await rows(41));
    expect((await rows(42)).map((r) => r.balance_after)).toEqual([
      "2.000000000000000000",
      "5.000000000000000000",
      "3.500000000000000000",
      "1.500000000000000000",
    ]);
    // An overdraft refuses with the domain's code and leaves nothing of the caller's transaction.
    const marker = key("marker");
    await expect(
      db.transaction(async (tx) => {
        await tx.execute(sql`insert into journal_entries (idempotency_key, book, kind, reference_type, reference_id)
          values (${marker}, 'real', 'test', 't', '42')`);
        await postEntriesInTransaction(tx, [
          {
            idempotencyKey: key("overdraw"),
            kind: "test",
            reference: { type: "t", id: 42 },
            postings: [
              { account: user(42, "SOL"), amount: "-4" },
              { account: house, amount: "4" },
            ],
          },
        ]);
      }),
    ).rejects.toMatchObject({ code: "INSUFFICIENT_BALANCE" });
    const left = await db.execute(sql`select 1 from journal_entries where idempotency_key = ${marker}`);
    expect(left.rows).toHaveLength(0);
    expect((await getUserBalances(db, 42, "real")).find((b) => b.currency === "SOL")?.available).toBe(
      "3.500000000000000000",
    );
    expect((await reconcileLedger(db)).ok).toBe(true);
  });

  it("keeps exact decimals where floats would drift", async () => {
    for (let i = 0; i < 10; i++) {
      await deposit(3, "BTC", "0.1");
    }
    const [row] = await getUserBalances(db, 3, "real");
    expect(new MoneyDecimal(row?.available ?? "0").equals("1")).toBe(true);
  });

  it("lets exactly 3 of 50 simultaneous holds through when the balance covers 3", async () => {
    await deposit(4, "USDT", "300");
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, (_, i) =>
        holdFunds(db, {
          userId: 4,
          book: "real",
          wallet: "exchange",
          currency: "USDT",
          amount: "100",
          idempotencyKey: key(`hold-${i}`),
          kind: "withdrawal.hold",
          reference: { type: "test", id: i },
        }),
      ),
    );
    const ok = results.filter((r) => r.status === "fulfilled");
    const refused = results.filter((r) => r.status === "rejected");
    expect(ok).toHaveLength(3);
    expect(refused).toHaveLength(47);
    for (const r of refused) {
      expect((r as PromiseRejectedResult).reason).toBeInstanceOf(AppError);
      expect(((r as PromiseRejectedResult).reason as AppError).code).toBe("INSUFFICIENT_BALANCE");
    }
    const [row] = await getUserBalances(db, 4, "real");
    expect(row).toMatchObject({ available: "0.000000000000000000", held: "300.000000000000000000" });
    expect((await reconcileLedger(db)).ok).toBe(true);
  });
});

/** A reference model of balances, to compare with the database after every step. */
type Model = Map<string, InstanceType<typeof MoneyDecimal>>;
const mkey = (u: number, wallet: string, currency: string, bucket: string) =>
  `${u}|${wallet}|${currency}|${bucket}`;
const get = (m: Model, k: string) => m.get(k) ?? new MoneyDecimal(0);

const amountArb = fc
  .tuple(fc.integer({ min: 1, max: 500_000 }), fc.integer({ min: 0, max: 6 }))
  .map(([units, scale]) => new MoneyDecimal(units).div(new MoneyDecimal(10).pow(scale)).toFixed());
const stepArb = fc.record({
  op: fc.constantFrom("deposit", "hold", "release", "transfer", "withdraw", "convert"),
  user: fc.integer({ min: 100, max: 103 }),
  currency: fc.constantFrom("USDT", "BTC"),
  amount: amountArb,
});

/**
 * The ledger's own reconciliation: stored balances, entries, currencies and system-account rules. The
 * checks modules above it add (the proof of liabilities', loaded in every integration test as in the
 * servers) are left out here: these tests post raw C2C entries with no reservation behind them, which
 * that check rightly reports.
 */
async function reconcileBooks(handle: DbOrTx) {
  const report = await reconcileLedger(handle);
  const ok =
    report.mismatchedAccounts.length === 0 &&
    report.unbalancedCurrencies.length === 0 &&
    report.unbalancedEntries.length === 0 &&
    report.ruleBreaks.length === 0;
  return { ...report, ok };
}

describe("ledger references", () => {
  const pgCode = async (statement: Promise<unknown>) => {
    const error = await statement.then(
      () => undefined,
      (e: { cause?: { code?: string }; code?: string }) => e,
    );
    return error?.cause?.code ?? error?.code;
  };

  it("refuses a posting whose account or entry does not exist, and writes none of its statement", async () => {
    await deposit(8101, "USDT", "10");
    const [account] = (
      await db.execute<{ id: number }>(
        sql`select id from ledger_accounts where user_id = 8101 and currency = 'USDT' order by id limit 1`,
      )
    ).rows;
    const [entry] = (await db.execute<{ id: number }>(sql`select max(id) as id from journal_entries`)).rows;
    const before = (await db.execute<{ n: number }>(sql`select count(*)::int as n from postings`)).rows[0]?.n;
    const insert = (entryId: number, accountId: number) =>
      db.execute(sql`insert into postings (entry_id, account_id, currency, amount, balance_after)
        values (${entry?.id}, ${account?.id}, 'USDT', 1, 1), (${entryId}, ${accountId}, 'USDT', -1, 0)`);
    // 23503: the code a foreign key gives, so callers see the same refusal as before.
    expect(await pgCode(insert(Number(entry?.id), 987654321))).toBe("23503");
    expect(await pgCode(insert(987654321, Number(account?.id)))).toBe("23503");
    const after = (await db.execute<{ n: number }>(sql`select count(*)::int as n from postings`)).rows[0]?.n;
    expect(after).toBe(before);
  });

  it("refuses to delete, truncate or re-key entries and accounts, or to change a posting", async () => {
    await deposit(8102, "USDT", "5");
    const refused = [
      sql`delete from journal_entries where id = (select max(id) from journal_entries)`,
      sql`update journal_entries set id = id + 1000000 where id = (select max(id) from journal_entries)`,
      sql`delete from ledger_accounts where user_id = 8102`,
      sql`update ledger_accounts set id = id + 1000000 where user_id = 8102`,
      sql`truncate ledger_accounts cascade`,
      sql`delete from postings where id = (select max(id) from postings)`,
      sql`update postings set amount = amount where id = (select max(id) from postings)`,
    ];
    for (const statement of refused) {
      expect(await pgCode(db.execute(statement))).toBe("23001");
    }
    expect(await getUserBalances(db, 8102, "real")).toContainEqual(
      expect.objectContaining({ currency: "USDT", available: "5.000000000000000000" }),
    );
  });
});

describe("system-account rules", () => {
  const system = (code: SystemCode, currency: string, book: "real" | "demo" = "real"): AccountRef => ({
    system: code,
    book,
    currency,
  });
  const balanceOf = async (code: string, currency: string) => {
    const rows = await db.execute<{ balance: string }>(
      sql`select balance::text from ledger_accounts where system_code = ${code} and currency = ${currency}`,
    );
    return new MoneyDecimal(rows.rows[0]?.balance ?? "0").toFixed();
  };
  const refusalOf = (p: Promise<unknown>) =>
    p.then(
      () => "posted",
      (e: unknown) => (e instanceof AppError ? e.code : String(e)),
    );

  it("refuses the C2C entry that would pay a user from an escrow never funded in that coin; nothing changes", async () => {
    // Issue 31: the reserve and completion of a USDT order against a merchant funded only in BTC.
    const funded = key("c2c-fund");
    await postEntry(db, {
      idempotencyKey: funded,
      kind: "c2c.stock.fund",
      reference: { type: "t", id: funded },
      postings: [
        { account: system("c2c_supply", "BTC"), amount: "-100" },
        { account: system("c2c_escrow:9001", "BTC"), amount: "100" },
      ],
    });
    const reserve = (idempotencyKey: string) =>
      postEntry(db, {
        idempotencyKey,
        kind: "c2c.reserve",
        reference: { type: "t", id: idempotencyKey },
        postings: [
          { account: system("c2c_escrow:9001", "USDT"), amount: "-50" },
          { account: system("c2c_reserved:9001", "USDT"), amount: "50" },
        ],
      });
    const reserveKey = key("c2c-reserve");
    expect(await refusalOf(reserve(reserveKey))).toBe("SYSTEM_ACCOUNT_RULE");
    expect(await balanceOf("c2c_escrow:9001", "USDT")).toBe("0");
    expect(await balanceOf("c2c_reserved:9001", "USDT")).toBe("0");
    expect(await balanceOf("c2c_escrow:9001", "BTC")).toBe("100");
    const written = await db.execute(
      sql`select 1 from journal_entries where idempotency_key = ${reserveKey}`,
    );
    expect(written.rows).toHaveLength(0);
    // Straight from reserved to the user: refused as well, and the user gets nothing.
    const complete = key("c2c-complete");
    expect(
      await refusalOf(
        postEntry(db, {
          idempotencyKey: complete,
          kind: "c2c.complete",
          reference: { type: "t", id: complete },
          postings: [
            { account: system("c2c_reserved:9001", "USDT"), amount: "-50" },
            { account: user(9001, "USDT"), amount: "50" },
          ],
        }),
      ),
    ).toBe("SYSTEM_ACCOUNT_RULE");
    expect(await getUserBalances(db, 9001, "real")).toEqual([]);
    // The same refusal inside a caller's transaction rolls the whole of it back.
    await expect(
      db.transaction((tx) =>
        postEntriesInTransaction(tx, [
          {
            idempotencyKey: key("c2c-in-tx"),
            kind: "c2c.reserve",
            reference: { type: "t", id: 1 },
            postings: [
              { account: system("c2c_escrow:9001", "BTC"), amount: "-100.000000000000000001" },
              { account: system("c2c_reserved:9001", "BTC"), amount: "100.000000000000000001" },
            ],
          },
        ]),
      ),
    ).rejects.toMatchObject({ code: "SYSTEM_ACCOUNT_RULE" });
    // What the escrow holds can move, to the last unit.
    expect(
      await refusalOf(
        postEntry(db, {
          idempotencyKey: key("c2c-reserve-btc"),
          kind: "c2c.reserve",
          reference: { type: "t", id: 2 },
          postings: [
            { account: system("c2c_escrow:9001", "BTC"), amount: "-100" },
            { account: system("c2c_reserved:9001", "BTC"), amount: "100" },
          ],
        }),
      ),
    ).toBe("posted");
    expect(await balanceOf("c2c_escrow:9001", "BTC")).toBe("0");
    expect((await reconcileBooks(db)).ok).toBe(true);
  });

  it("pins the rule of the accounts that hold users' money or mirror it", () => {
    const sign = (code: string) => systemAccountRule(code).sign;
    expect(sign("c2c_escrow:1")).toBe("not_negative");
    expect(sign("c2c_reserved:1")).toBe("not_negative");
    expect(sign("earn_custody")).toBe("not_negative");
    expect(sign("marketing_budget")).toBe("not_negative");
    expect(sign("fees")).toBe("not_negative");
    expect(sign("loan_interest")).toBe("not_negative");
    expect(sign("withdrawal_clearing:bank")).toBe("not_negative");
    expect(sign("c2c_supply")).toBe("not_positive");
    expect(sign("loans_pool")).toBe("not_positive");
    expect(sign("deposit_clearing:crypto")).toBe("not_positive");
    expect(sign("house")).toBe("either");
    expect(sign("demo_faucet")).toBe("not_positive");
    // A code without a rule is held to the strictest one.
    expect(sign("something_new")).toBe("not_negative");
    for (const rule of Object.values(SYSTEM_ACCOUNT_RULES)) {
      expect(rule.why.length).toBeGreaterThan(20);
    }
  });

  it("enforces every account's rule where entries are posted, in both books", async () => {
    const counter = system("house", "RULE");
    for (const [name, rule] of Object.entries(SYSTEM_ACCOUNT_RULES)) {
      const code = (name.endsWith(":*") ? name.replace(":*", ":test") : name) as SystemCode;
      for (const book of ["real", "demo"] as const) {
        // Each direction from zero, on an account of its own.
        const move = (amount: string) => {
          const currency = `R${++seq}`;
          const k = key(`rule:${code}`);
          return refusalOf(
            postEntry(db, {
              idempotencyKey: k,
              kind: "test",
              reference: { type: "t", id: k },
              postings: [
                { account: system(code, currency, book), amount },
                { account: { ...counter, book, currency }, amount: new MoneyDecimal(amount).neg().toFixed() },
              ],
            }),
          );
        };
        const down = await move("-0.000000000000000001");
        const up = await move("0.000000000000000001");
        const expected = {
          not_negative: ["SYSTEM_ACCOUNT_RULE", "posted"],
          not_positive: ["posted", "SYSTEM_ACCOUNT_RULE"],
          either: ["posted", "posted"],
        }[rule.sign];
        expect([code, book, down, up]).toEqual([code, book, ...expected]);
      }
    }
    expect((await reconcileBooks(db)).ok).toBe(true);
  });

  it("reconciliation lists an account that broke its rule before the rule existed, and is not ok", async () => {
    const rolledBack = new Error("rolled back");
    const report = await db
      .transaction(async (tx) => {
        // Balances written before the rule: the constraint is only for new writes (NOT VALID).
        await tx.execute(sql`alter table ledger_accounts drop constraint ledger_accounts_system_rule`);
        await postEntry(tx, {
          idempotencyKey: key("old-c2c"),
          kind: "c2c.complete",
          reference: { type: "t", id: 1 },
          postings: [
            { account: system("c2c_escrow:77", "USDT"), amount: "-50" },
            { account: user(77, "USDT"), amount: "50" },
          ],
        });
        await postEntry(tx, {
          idempotencyKey: key("old-supply"),
          kind: "c2c.stock.withdraw",
          reference: { type: "t", id: 2 },
          postings: [
            { account: system("c2c_supply", "ETH"), amount: "3" },
            { account: system("house", "ETH"), amount: "-3" },
          ],
        });
        const inside = await reconcileBooks(tx);
        throw Object.assign(rolledBack, { inside });
      })
      .catch((e: unknown) => {
        if (e !== rolledBack) {
          throw e;
        }
        return (e as { inside: Awaited<ReturnType<typeof reconcileLedger>> }).inside;
      });
    expect(report.ok).toBe(false);
    expect(report.mismatchedAccounts).toEqual([]);
    expect(report.unbalancedCurrencies).toEqual([]);
    expect(
      report.ruleBreaks.map(({ accountId: _id, ...rest }) => ({
        ...rest,
        balance: new MoneyDecimal(rest.balance).toFixed(),
      })),
    ).toEqual([
      { systemCode: "c2c_escrow:77", book: "real", currency: "USDT", balance: "-50", rule: "not_negative" },
      { systemCode: "c2c_supply", book: "real", currency: "ETH", balance: "3", rule: "not_positive" },
    ]);
    // Rolled back: the ledger as it is keeps its rules and reconciles.
    const now = await reconcileBooks(db);
    expect(now.ruleBreaks).toEqual([]);
    expect(now.ok).toBe(true);
  });
});

describe("ledger properties", () => {
  it("after any sequence of operations: no negative balance, entries balance, reconciliation passes, model agrees", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(stepArb, { minLength: 5, maxLength: 25 }), async (steps) => {
        const run = ++seq;
        const model: Model = new Map();
        for (const [i, s] of steps.entries()) {
          const u = run * 10 + (s.user - 100) + 1_000_000;
          const k = `prop:${run}:${i}`;
          const ref = { type: "prop", id: k };
          const avail = mkey(u, "exchange", s.currency, "available");
          const held = mkey(u, "exchange", s.currency, "held");
          try {
            if (s.op === "deposit") {
              await deposit(u, s.currency, s.amount, k);
              model.set(avail, get(model, avail).plus(s.amount));
            } else if (s.op === "hold") {
              await holdFunds(db, {
                userId: u,
                book: "real",
                wallet: "exchange",
                currency: s.currency,
                amount: s.amount,
                idempotencyKey: k,
                kind: "hold",
                reference: ref,
              });
              model.set(avail, get(model, avail).minus(s.amount));
              model.set(held, get(model, held).plus(s.amount));
            } else if (s.op === "release") {
              await releaseFunds(db, {
                userId: u,
                book: "real",
                wallet: "exchange",
                currency: s.currency,
                amount: s.amount,
                idempotencyKey: k,
                kind: "release",
                reference: ref,
              });
              model.set(held, get(model, held).minus(s.amount));
              model.set(avail, get(model, avail).plus(s.amount));
            } else if (s.op === "transfer") {
              await postEntry(db, {
                idempotencyKey: k,
                kind: "transfer",
                reference: ref,
                postings: [
                  { account: user(u, s.currency), amount: `-${s.amount}` },
                  { account: user(u, s.currency, "contract"), amount: s.amount },
                ],
              });
              model.set(avail, get(model, avail).minus(s.amount));
              const c = mkey(u, "contract", s.currency, "available");
              model.set(c, get(model, c).plus(s.amount));
            } else if (s.op === "withdraw") {
              await postEntry(db, {
                idempotencyKey: k,
                kind: "withdrawal.approve",
                reference: ref,
                postings: [
                  { account: user(u, s.currency, "exchange", "held"), amount: `-${s.amount}` },
                  {
                    account: { system: "withdrawal_clearing:crypto", book: "real", currency: s.currency },
                    amount: s.amount,
                  },
                ],
              });
              model.set(held, get(model, held).minus(s.amount));
            } else {
              // Convert USDT→BTC or BTC→USDT at a fixed price of 50,000 through the house account.
              const [from, to] = s.currency === "USDT" ? ["USDT", "BTC"] : ["BTC", "USDT"];
              const received =
                from === "USDT"
                  ? new MoneyDecimal(s.amount).div(50_000).toDecimalPlaces(18, 1)
                  : new MoneyDecimal(s.amount).times(50_000);
              if (received.isZero()) {
                continue;
              }
              await postEntry(db, {
                idempotencyKey: k,
                kind: "convert",
                reference: ref,
                postings: [
                  { account: user(u, from), amount: `-${s.amount}` },
                  { account: { system: "house", book: "real", currency: from }, amount: s.amount },
                  {
                    account: { system: "house", book: "real", currency: to },
                    amount: `-${received.toFixed()}`,
                  },
                  { account: user(u, to), amount: received.toFixed() },
                ],
              });
              const fromKey = mkey(u, "exchange", from, "available");
              const toKey = mkey(u, "exchange", to, "available");
              model.set(fromKey, get(model, fromKey).minus(s.amount));
              model.set(toKey, get(model, toKey).plus(received));
            }
          } catch (error) {
            // A refusal is allowed only when the model says the funds were not there.
            expect(error).toBeInstanceOf(AppError);
            expect((error as AppError).code).toBe("INSUFFICIENT_BALANCE");
          }
          for (const value of model.values()) {
            expect(value.isNegative()).toBe(false);
          }
        }
        for (const u of new Set(steps.map((s) => run * 10 + (s.user - 100) + 1_000_000))) {
          for (const row of await getUserBalances(db, u, "real")) {
            expect(
              new MoneyDecimal(row.available).equals(
                get(model, mkey(u, row.wallet, row.currency, "available")),
              ),
            ).toBe(true);
            expect(
              new MoneyDecimal(row.held).equals(get(model, mkey(u, row.wallet, row.currency, "held"))),
            ).toBe(true);
          }
        }
        const report = await reconcileLedger(db);
        expect(report.mismatchedAccounts).toEqual([]);
        expect(report.unbalancedCurrencies).toEqual([]);
        expect(report.unbalancedEntries).toEqual([]);
      }),
      { numRuns: 25 },
    );
  });
});
