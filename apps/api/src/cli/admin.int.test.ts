import { postEntry } from "@northstar/domain/ledger";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runAdminCli } from "../test/cli.ts";
import { query } from "../test/fixtures.ts";
import { createHarness, type Harness } from "../test/harness.ts";
import {
  ADDR,
  balanceOf,
  dataOf,
  depositAndConfirm,
  operatorToken,
  setDepositAddress,
  submitDeposit,
  userIdOf,
} from "../test/money.ts";

/** `pnpm admin …` as an operator runs it: a child process against this test's database and Redis. */
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h?.close();
});

const cli = (...args: string[]) => runAdminCli(h, ...args);

// Each command starts node with tsx; on a busy machine that alone can take seconds.
describe("pnpm admin", { timeout: 120_000 }, () => {
  it("confirms a deposit from the command line, audited as the cli operator", async () => {
    const op = await operatorToken(h, "finance");
    await setDepositAddress(h, op, "USDT", "ERC20", ADDR.ERC20);
    const u = await h.registerByEmail();
    const { id } = dataOf<{ id: number }>(await submitDeposit(h, u.token, { amount: "40" }));
    const run = await cli("deposits:confirm", String(id));
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ id, status: "success" });
    expect(await balanceOf(h, await userIdOf(h, u.token))).toEqual({ available: "40", held: "0" });
    const again = await cli("deposits:confirm", String(id));
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("ALREADY_REVIEWED");
    expect(await balanceOf(h, await userIdOf(h, u.token))).toEqual({ available: "40", held: "0" });
    expect(
      await query(h, "select actor, action from audit_log where subject = $1 and action like 'deposit.%'", [
        String(id),
      ]),
    ).toEqual([{ actor: "cli", action: "deposit.confirm" }]);
  });

  it("reconcile: prints the totals per book and currency and exits 0, then 1 with MISMATCH after corruption", async () => {
    const op = await operatorToken(h, "finance");
    await setDepositAddress(h, op, "BTC", "BTC", ADDR.BTC);
    const u = await h.registerByEmail();
    await depositAndConfirm(h, u.token, op, "1000");
    await depositAndConfirm(h, u.token, op, "0.25", "BTC", "BTC");
    const demo = await h.call("tempLogin", { amount: "10000" }, "GET");
    expect(demo.code, demo.message).toBe(0);

    const ok = await cli("reconcile");
    expect(ok.code, ok.stderr).toBe(0);
    const lines = ok.stdout.trim().split("\n");
    expect(lines[0]).toBe("book  currency  users  system");
    // 40 USDT from the first test plus 1000 here.
    expect(lines).toContain("real  USDT  1040.000000000000000000  -1040.000000000000000000");
    expect(lines).toContain("real  BTC  0.250000000000000000  -0.250000000000000000");
    expect(lines).toContain("demo  USDT  10000.000000000000000000  -10000.000000000000000000");
    expect(lines.at(-1)).toBe("ledger balances");
    expect(ok.stdout).not.toMatch(/MISMATCH|UNBALANCED|DIFFERS/);
    // The proof of liabilities' check: what users are owed equals the ledger's user claims.
    expect(lines).toContain(
      "liabilities  USDT: users' claims 1040, ledger 1040 (user accounts 1040, earn custody 0, c2c reserved 0, option stakes 0, accrued yield 0)",
    );
    expect(lines).toContain("latest-proof  no proof published yet");

    const userId = await userIdOf(h, u.token);
    const [account] = await query<{ id: string }>(
      h,
      "update ledger_accounts set balance = balance + 1 where user_id = $1 and currency = 'USDT' and bucket = 'available' returning id",
      [userId],
    );
    const bad = await cli("reconcile");
    expect(bad.code).toBe(1);
    expect(bad.stdout).toContain(
      `MISMATCH account ${account?.id}: balance 1001.000000000000000000, postings sum 1000.000000000000000000`,
    );
    expect(bad.stdout).toContain("UNBALANCED real USDT: sums to 1.000000000000000000");
    expect(bad.stdout.trim().split("\n").at(-1)).toBe("LEDGER DOES NOT BALANCE");
    await query(h, "update ledger_accounts set balance = balance - 1 where id = $1", [account?.id]);
  });

  it("reconcile: checks the latest proof and what users are owed against the ledger's user claims", async () => {
    expect((await cli("proof:publish")).code).toBe(0);
    const published = await cli("reconcile");
    expect(published.code, published.stdout).toBe(0);
    expect(published.stdout).toMatch(
      /latest-proof {2}proof \d+ of \S+ USDT: published 1040, ledger at its snapshot 1040/,
    );
    const [{ id: userId } = { id: "0" }] = await query<{ id: string }>(
      h,
      "select user_id::text as id from ledger_accounts where user_id is not null and book = 'real' and currency = 'USDT' order by balance desc, id limit 1",
    );
    // A pending withdrawal whose hold is missing from the ledger: the held funds no longer cover it.
    await query(
      h,
      "insert into withdrawals (user_id, method, currency, amount, fee, received) values ($1, 'bank', 'USDT', 5, 0, 5)",
      [userId],
    );
    const owed = await cli("reconcile");
    expect(owed.code).toBe(1);
    expect(owed.stdout).toContain(`DIFFERS liabilities: user ${userId} USDT: held -5`);
    expect(owed.stdout.trim().split("\n").at(-1)).toBe("LIABILITIES DO NOT RECONCILE");
  });

  it("reconcile: exits 1 listing a system account that breaks its sign rule, though every sum balances", async () => {
    // Undo the previous tests' corruption: the ledger balances again, and the withdrawal written
    // without its hold is gone.
    await query(
      h,
      "update ledger_accounts a set balance = (select coalesce(sum(p.amount), 0) from postings p where p.account_id = a.id)",
    );
    await query(
      h,
      "delete from withdrawals where method = 'bank' and amount = 5 and received = 5 and fee = 0",
    );
    expect((await cli("reconcile")).code).toBe(0);
    // A C2C escrow paid out in a coin it was never funded in, written before the rule existed (the
    // constraint is NOT VALID: older rows are found by reconciliation, not by the migration).
    await query(h, "alter table ledger_accounts drop constraint if exists ledger_accounts_system_rule");
    await postEntry(h.db, {
      idempotencyKey: "test:c2c-escrow-overdrawn",
      kind: "c2c.complete",
      reference: { type: "test", id: 1 },
      postings: [
        { account: { system: "c2c_escrow:4242", book: "real", currency: "USDT" }, amount: "-50" },
        { account: { system: "house", book: "real", currency: "USDT" }, amount: "50" },
      ],
    });
    const [escrow] = await query<{ id: string }>(
      h,
      "select id from ledger_accounts where system_code = 'c2c_escrow:4242' and currency = 'USDT'",
    );
    const bad = await cli("reconcile");
    expect(bad.code).toBe(1);
    expect(bad.stdout).toContain(
      `RULE BROKEN account ${escrow?.id} c2c_escrow:4242 real USDT: balance -50.000000000000000000, rule not_negative`,
    );
    expect(bad.stdout).not.toMatch(/MISMATCH|UNBALANCED/);
    expect(bad.stdout.trim().split("\n").at(-1)).toBe("SYSTEM ACCOUNT RULE BROKEN");
  });
});
