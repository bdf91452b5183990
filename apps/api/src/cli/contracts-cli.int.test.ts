import { openContractPosition, recordContractTicks } from "@northstar/domain/contracts";
import { authenticate } from "@northstar/domain/identity";
import { postEntry } from "@northstar/domain/ledger";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runAdminCli } from "../test/cli.ts";
import { query } from "../test/fixtures.ts";
import { createHarness, type Harness } from "../test/harness.ts";
import { userIdOf } from "../test/money.ts";

/** `pnpm admin contracts:…`: a product disabled (an audited policy change), a bad one refused, the open exposure. */
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h?.close();
});

describe("pnpm admin contracts", { timeout: 120_000 }, () => {
  it("disables a product with an audit record, refuses a bad one, and shows the open exposure", async () => {
    const set = await runAdminCli(
      h,
      "contracts:set-products",
      JSON.stringify({ XRPUSDT: { enabled: false } }),
    );
    expect(set.code, set.stderr).toBe(0);
    const products = await runAdminCli(h, "contracts:products");
    const listed = JSON.parse(products.stdout) as { symbol: string; open: boolean }[];
    expect(listed.find((p) => p.symbol === "XRPUSDT")?.open).toBe(false);
    const bad = await runAdminCli(h, "contracts:set-products", JSON.stringify({ XRPUSDT: { feeRate: "2" } }));
    expect(bad.code).toBe(1);
    expect(
      await query(h, "select actor, action from audit_log where subject = 'contracts.products' order by id"),
    ).toEqual([{ actor: "cli", action: "policy.set" }]);

    const u = await h.registerByEmail();
    const userId = await userIdOf(h, u.token);
    await postEntry(h.db, {
      idempotencyKey: `cli-grant:${userId}`,
      kind: "test.grant",
      reference: { type: "test", id: userId },
      postings: [
        { account: { system: "deposit_clearing:test", book: "real", currency: "USDT" }, amount: "-1000" },
        { account: { userId, book: "real", wallet: "contract", currency: "USDT" }, amount: "1000" },
      ],
    });
    await recordContractTicks(h.db, [{ symbol: "BTCUSDT", price: "90000", time: Date.now() }]);
    const { user } = await authenticate(h.db, u.token);
    await openContractPosition({ db: h.db }, user, {
      symbol: "BTCUSDT",
      side: "long",
      order_type: "market",
      lots: "0.05",
      leverage: 10,
    });
    const exposure = await runAdminCli(h, "contracts:exposure");
    expect(exposure.code, exposure.stderr).toBe(0);
    expect(JSON.parse(exposure.stdout)).toEqual([
      { symbol: "BTCUSDT", book: "real", positions: 1, long_lots: "0.05", short_lots: "0", margin: "450" },
    ]);
  });
});
