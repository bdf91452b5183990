import { authenticate } from "@northstar/domain/identity";
import { postEntry } from "@northstar/domain/ledger";
import { buyOption, recordTicks } from "@northstar/domain/options";
import { POLICY } from "@northstar/shared/policy";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runAdminCli } from "../test/cli.ts";
import { query } from "../test/fixtures.ts";
import { createHarness, type Harness } from "../test/harness.ts";
import { userIdOf } from "../test/money.ts";

/** `pnpm admin options:…`: the products (an audited policy change), the open exposure, the house result. */
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h?.close();
});

describe("pnpm admin options", { timeout: 120_000 }, () => {
  it("edits the products with an audit record, refuses a bad one, and shows the open exposure", async () => {
    const products = { ...POLICY["options.products"].default };
    products.BTCUSDT = {
      periods: [{ seconds: 45, payoutRate: "0.7", feeRate: "0.02", min: "5", max: "500" }],
      tie: "loss",
    };
    const set = await runAdminCli(h, "options:set-products", JSON.stringify(products));
    expect(set.code, set.stderr).toBe(0);
    const bad = await runAdminCli(
      h,
      "options:set-products",
      JSON.stringify({
        BTCUSDT: {
          periods: [{ seconds: 45, payoutRate: "0.7", feeRate: "1.5", min: "5", max: "500" }],
          tie: "loss",
        },
      }),
    );
    expect(bad.code).toBe(1);
    expect(
      await query(h, "select actor, action from audit_log where subject = 'options.products' order by id"),
    ).toEqual([{ actor: "cli", action: "policy.set" }]);

    const u = await h.registerByEmail();
    const userId = await userIdOf(h, u.token);
    await postEntry(h.db, {
      idempotencyKey: `cli-grant:${userId}`,
      kind: "test.grant",
      reference: { type: "test", id: userId },
      postings: [
        { account: { system: "deposit_clearing:test", book: "real", currency: "USDT" }, amount: "-100" },
        { account: { userId, book: "real", wallet: "option", currency: "USDT" }, amount: "100" },
      ],
    });
    await recordTicks(h.db, [{ symbol: "BTCUSDT", price: "90000", time: Date.now() }]);
    const { user } = await authenticate(h.db, u.token);
    await buyOption({ db: h.db }, user, {
      symbol: "BTCUSDT",
      direction: "up",
      amount: "20",
      period_seconds: 45,
    });

    const shown = await runAdminCli(h, "options:products");
    expect(shown.code, shown.stderr).toBe(0);
    const btc = (JSON.parse(shown.stdout) as { symbol: string; tie: string; periods: unknown[] }[]).find(
      (p) => p.symbol === "BTCUSDT",
    );
    expect(btc).toMatchObject({
      tie: "loss",
      periods: [{ seconds: 45, payout_rate: "0.7", fee_rate: "0.02" }],
    });
    const exposure = await runAdminCli(h, "options:exposure");
    expect(exposure.code, exposure.stderr).toBe(0);
    expect(JSON.parse(exposure.stdout)).toEqual([
      { book: "real", symbol: "BTCUSDT", period_seconds: 45, orders: 1, up_amount: "20", down_amount: "0" },
    ]);
    const house = await runAdminCli(h, "options:house");
    expect(house.code, house.stderr).toBe(0);
    expect(JSON.parse(house.stdout)).toEqual([]);
  });
});
