import { randomBytes } from "node:crypto";
import { subscribe, unsubscribe } from "node:diagnostics_channel";
import { upsertOperator } from "@northstar/domain/admin";
import { SECRET_VERIFY_CHANNEL } from "@northstar/domain/identity";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Envelope } from "../legacy/define.ts";
import { expectRefusal, expectTrpcRefusal, query } from "../test/fixtures.ts";
import { createHarness, type Harness } from "../test/harness.ts";
import type { TrpcResult } from "../test/money.ts";

/**
 * Per-address limits with a test clock: no 60-second span ever lets more than the limit through,
 * even a burst across what a fixed window would call its end; and a refused request does no work.
 */
const LIMIT = 4;
let now = Date.parse("2026-06-01T12:00:00Z");
let h: Harness;
beforeAll(async () => {
  h = await createHarness({ authRatePerMinute: LIMIT, clock: () => now });
});
afterAll(async () => {
  await h?.close();
});

const getCode = (address: string) =>
  h.app
    .inject({
      method: "POST",
      url: "/web/getCode",
      payload: new URLSearchParams({
        type: "email",
        account: `burst-${randomBytes(4).toString("hex")}@example.com`,
        purpose: "register",
      }).toString(),
      headers: { "content-type": "application/x-www-form-urlencoded" },
      remoteAddress: address,
    })
    .then((r) => r.json() as Envelope);
const sent = (results: Envelope[]) => results.filter((r) => r.code === 0).length;

describe("verification-code mails per address", () => {
  it("a burst spanning a minute's end sends no more than the limit in any 60 seconds", async () => {
    const address = "10.40.0.1";
    // One at 0 s, the rest of the budget at 50 s.
    expect(sent([await getCode(address)])).toBe(1);
    now += 50_000;
    const at50 = [];
    for (let i = 0; i < LIMIT; i++) {
      at50.push(await getCode(address));
    }
    expect(sent(at50)).toBe(LIMIT - 1);
    expectRefusal(at50[LIMIT - 1] as Envelope, "RATE_LIMITED");
    // At 61 s only the request of 0 s has left the last 60 seconds: one more, not a fresh budget.
    now += 11_000;
    const at61 = [];
    for (let i = 0; i < LIMIT; i++) {
      at61.push(await getCode(address));
    }
    expect(sent(at61)).toBe(1);
    // At 111 s those of 50 s have left: three more.
    now += 50_000;
    const at111 = [];
    for (let i = 0; i < LIMIT; i++) {
      at111.push(await getCode(address));
    }
    expect(sent(at111)).toBe(LIMIT - 1);
    // Every 60-second span of what went out holds at most the limit.
    const rows = await query<{ n: number }>(
      h,
      "select count(*)::int as n from verification_codes where ip = $1",
      [address],
    );
    expect(rows[0]?.n).toBe(1 + (LIMIT - 1) + 1 + (LIMIT - 1));
  });

  it("a refused request does not extend the wait", async () => {
    const address = "10.40.0.2";
    for (let i = 0; i < LIMIT; i++) {
      expect((await getCode(address)).code).toBe(0);
    }
    for (let i = 0; i < 5; i++) {
      now += 10_000;
      expectRefusal(await getCode(address), "RATE_LIMITED");
    }
    now += 10_001;
    expect((await getCode(address)).code).toBe(0);
  });
});

describe("operator sign-in per address", () => {
  const login = (username: string, address: string) =>
    h.app
      .inject({
        method: "POST",
        url: "/trpc/admin.login",
        payload: JSON.stringify({ username, password: "wrong-password" }),
        headers: { "content-type": "application/json", lang: "jp" },
        remoteAddress: address,
      })
      .then((r) => ({ status: r.statusCode, body: r.json() }) as TrpcResult);

  it("is refused past the address's budget before any hashing, and the refusal counts no attempt", async () => {
    const username = `flood-${randomBytes(3).toString("hex")}`;
    await upsertOperator(h.db, {
      username,
      password: randomBytes(12).toString("base64url"),
      role: "support",
      actor: "test",
    });
    let hashed = 0;
    const onVerify = () => {
      hashed += 1;
    };
    subscribe(SECRET_VERIFY_CHANNEL, onVerify);
    try {
      for (let i = 0; i < LIMIT; i++) {
        expectTrpcRefusal(await login(username, "10.41.0.1"), "OPERATOR_LOGIN_WRONG", { lang: "jp" });
      }
      expect(hashed).toBe(LIMIT);
      const refused = await login(username, "10.41.0.1");
      expectTrpcRefusal(refused, "RATE_LIMITED", { lang: "jp" });
      expect(hashed).toBe(LIMIT);
    } finally {
      unsubscribe(SECRET_VERIFY_CHANNEL, onVerify);
    }
    const counts = await query<{ kind: string; failures: number }>(
      h,
      "select kind, failures from secret_attempts where subject like $1 or subject = $2 order by kind",
      [`operator:${username}%`, "address:10.41.0.1"],
    );
    expect(counts.every((r) => r.failures <= LIMIT)).toBe(true);
    expect(counts.find((r) => r.kind === "operator_address")?.failures).toBe(LIMIT);
  });
});
