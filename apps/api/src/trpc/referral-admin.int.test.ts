import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectTrpcRefusal, query } from "../test/fixtures.ts";
import { createHarness, type Harness } from "../test/harness.ts";
import { operatorToken } from "../test/money.ts";

/** The back office's referral runs: a day that is no calendar day is refused by name, never a fault. */
type TrpcBody = Awaited<ReturnType<Harness["trpc"]>>["body"];
let h: Harness;
let op: string;
beforeAll(async () => {
  h = await createHarness();
  op = await operatorToken(h, "admin");
});
afterAll(async () => {
  await h?.close();
});

async function inject(path: string, input: unknown, method: "POST" | "GET" = "POST", lang = "en") {
  const headers = { "x-operator-token": op, lang };
  const response =
    method === "POST"
      ? await h.app.inject({
          method,
          url: `/trpc/${path}?lang=${lang}`,
          payload: JSON.stringify(input),
          headers: { ...headers, "content-type": "application/json" },
        })
      : await h.app.inject({
          method,
          url: `/trpc/${path}?lang=${lang}&input=${encodeURIComponent(JSON.stringify(input))}`,
          headers,
        });
  return { status: response.statusCode, body: response.json() as TrpcBody };
}

describe("referralAdmin with an impossible calendar day", () => {
  it("refuses 2026-02-30 (and 2026-13-01, 2025-02-29) as FIELD_INVALID naming the day, in the request's language; runs nothing", async () => {
    for (const day of ["2026-02-30", "2026-13-01", "2025-02-29", "2026-04-31"]) {
      const res = await inject("referralAdmin.runDay", { day });
      expectTrpcRefusal(res, "FIELD_INVALID", { params: { field: "Day" } });
      expect(res.body.error?.data.field).toBe("day");
    }
    const zh = await inject("referralAdmin.runDay", { day: "2026-02-30" }, "POST", "zh");
    expect(zh.status).toBe(400);
    expect(zh.body.error?.data.errorCode).toBe("FIELD_INVALID");
    expect(zh.body.error?.message).not.toMatch(/FIELD_INVALID|fields\.|Day/);
    const payouts = await inject("referralAdmin.payouts", { day: "2026-02-30" }, "GET");
    expectTrpcRefusal(payouts, "FIELD_INVALID", { params: { field: "Day" } });
    expect(await query(h, "select day from referral_runs order by day", [])).toEqual([]);
    // A real day (a leap day included) still runs.
    expect((await inject("referralAdmin.runDay", { day: "2024-02-29" })).status).toBe(200);
    expect(await query(h, "select day from referral_runs order by day", [])).toHaveLength(1);
  });
});
