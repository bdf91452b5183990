import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runAdminCli } from "../test/cli.ts";
import { query } from "../test/fixtures.ts";
import { createHarness, type Harness } from "../test/harness.ts";
import { balanceOf, grant, operatorToken, userIdOf } from "../test/money.ts";

/** New-coin subscription through the API: one subscription per key under concurrency, own records only. */
let h: Harness;
let offeringId: number;
beforeAll(async () => {
  h = await createHarness();
  const op = await operatorToken(h, "admin");
  const res = await inject(
    "adminLaunchpad.create",
    {
      coin: "LAPI",
      name: "API coin",
      issue_price: "1",
      subscribe_price: "0.5",
      total_quantity: "100000",
      min_quantity: "10",
      max_quantity: "1000",
      starts_at: new Date(Date.now() - 3_600_000).toISOString(),
      ends_at: new Date(Date.now() + 3_600_000).toISOString(),
      lock_days: 7,
      listing_day: "2027-02-01",
      circulation: "1000000",
    },
    { "x-operator-token": op },
  );
  offeringId = (res.body.result?.data as { id: number } | undefined)?.id ?? 0;
});
afterAll(async () => {
  await h?.close();
});

async function inject(path: string, input: unknown, headers: Record<string, string> = {}) {
  const response = await h.app.inject({
    method: "POST",
    url: `/trpc/${path}`,
    payload: JSON.stringify(input),
    headers: { ...headers, "content-type": "application/json" },
  });
  return {
    status: response.statusCode,
    body: response.json() as {
      result?: { data: unknown };
      error?: { data: { errorCode: string; field?: string | null } };
    },
  };
}

describe("launchpad through tRPC", () => {
  it("applies one subscription sent 20 times concurrently with one Idempotency-Key once; records are the user's own", async () => {
    expect(offeringId).toBeGreaterThan(0);
    const u = await h.registerByEmail();
    const userId = await userIdOf(h, u.token);
    await grant(h, userId, "1000");
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        inject(
          "launchpad.subscribe",
          { offering_id: offeringId, quantity: "600" },
          { authorization: `Bearer ${u.token}`, "idempotency-key": "launch-concurrent-01" },
        ),
      ),
    );
    for (const r of results.filter((x) => x.status !== 200)) {
      expect(r.body.error?.data.errorCode).toBe("REQUEST_IN_PROGRESS");
    }
    expect(results.some((r) => r.status === 200)).toBe(true);
    expect(
      await query(h, "select id from launchpad_subscriptions where user_id = $1", [userId]),
    ).toHaveLength(1);
    expect(await balanceOf(h, userId)).toEqual({ available: "700", held: "300" });

    const other = await h.registerByEmail();
    const records = await h.trpc("launchpad.records", { page: 1, page_size: 20 }, other.token, "query");
    expect(records.body.result?.data).toEqual([]);
    const own = await h.trpc("launchpad.records", { page: 1, page_size: 20 }, u.token, "query");
    expect(own.body.result?.data).toMatchObject([{ status: "reviewing", quantity: "600", frozen: "300" }]);
  });

  it("the CLI refuses the allocation before the close and fails the issuance with a full refund", async () => {
    const early = await runAdminCli(h, "launchpad:allocate", String(offeringId));
    expect(early.code).toBe(1);
    expect(early.stderr).toContain("LAUNCHPAD_NOT_CLOSED");
    const failed = await runAdminCli(h, "launchpad:fail", String(offeringId), "withdrawn");
    expect(failed.code, failed.stderr).toBe(0);
    const rows = await query<{ status: string }>(
      h,
      "select status from launchpad_subscriptions order by id",
      [],
    );
    expect(rows.map((r) => r.status)).toEqual(["refunded"]);
  });

  it("a price × quantity finer than the pay currency (19 decimals) freezes it rounded up, and a quantity finer than 8 decimals is refused by name: never a server fault", async () => {
    const op = await operatorToken(h, "admin");
    const created = await inject(
      "adminLaunchpad.create",
      {
        coin: "LFINE",
        name: "Fine coin",
        issue_price: "0.2",
        subscribe_price: "0.12345678901",
        total_quantity: "1000",
        min_quantity: "1",
        max_quantity: "10",
        starts_at: new Date(Date.now() - 3_600_000).toISOString(),
        ends_at: new Date(Date.now() + 3_600_000).toISOString(),
        lock_days: 7,
        listing_day: "2027-02-01",
        circulation: "1000000",
      },
      { "x-operator-token": op },
    );
    const id = (created.body.result?.data as { id: number } | undefined)?.id;
    const u = await h.registerByEmail();
    await grant(h, await userIdOf(h, u.token), "10");
    // A money action: each request carries its own Idempotency-Key.
    const auth = () => ({ authorization: `Bearer ${u.token}`, "idempotency-key": randomUUID() });
    const fine = await inject("launchpad.subscribe", { offering_id: id, quantity: "1.000000001" }, auth());
    expect([fine.status, fine.body.error?.data]).toMatchObject([
      400,
      { errorCode: "AMOUNT_TOO_PRECISE", field: "quantity" },
    ]);
    const ok = await inject("launchpad.subscribe", { offering_id: id, quantity: "1.00000001" }, auth());
    expect(ok.status).toBe(200);
    expect(ok.body.result?.data).toMatchObject({ quantity: "1.00000001", frozen: "0.123457" });
    expect(await balanceOf(h, await userIdOf(h, u.token))).toEqual({
      available: "9.876543",
      held: "0.123457",
    });
  });
});
