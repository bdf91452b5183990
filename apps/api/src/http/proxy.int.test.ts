import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Envelope } from "../legacy/define.ts";
import { expectRefusal } from "../test/fixtures.ts";
import { createHarness, type Harness } from "../test/harness.ts";

// Behind a trusted proxy: the client address and protocol come from X-Forwarded-*, so each test
// speaks from its own address and has its own rate budget.
let h: Harness;
const LIMIT = 4;
beforeAll(async () => {
  h = await createHarness({ trustProxy: true, authRatePerMinute: LIMIT });
});
afterAll(async () => {
  await h?.close();
});

describe("upgrade-insecure-requests behind a trusted proxy", () => {
  it("is sent when the proxy says the client came over https, and only then", async () => {
    const csp = async (headers: Record<string, string>) =>
      String(
        (await h.app.inject({ method: "GET", url: "/health", headers })).headers["content-security-policy"],
      );
    expect(await csp({ "x-forwarded-proto": "https", "x-forwarded-for": "10.0.0.1" })).toContain(
      "upgrade-insecure-requests",
    );
    expect(await csp({ "x-forwarded-proto": "http", "x-forwarded-for": "10.0.0.1" })).not.toContain(
      "upgrade-insecure-requests",
    );
  });
});

describe("per-address limits per action", () => {
  const login = (ip: string, method: "GET" | "POST", lang = "en") => {
    const fields = new URLSearchParams({
      type: "email",
      account: "nobody@example.com",
      password: "x1y2z3",
      lang,
    });
    return h.app
      .inject(
        method === "GET"
          ? { method, url: `/web/userLogin?${fields}`, headers: { "x-forwarded-for": ip } }
          : {
              method,
              url: "/web/userLogin",
              payload: fields.toString(),
              headers: { "x-forwarded-for": ip, "content-type": "application/x-www-form-urlencoded" },
            },
      )
      .then((res) => res.json() as Envelope);
  };

  it("counts GET and POST of one call against one budget", async () => {
    const ip = "10.1.0.1";
    for (let i = 0; i < LIMIT; i++) {
      const res = await login(ip, i % 2 === 0 ? "GET" : "POST");
      expect(res.data, `attempt ${i + 1}`).not.toMatchObject({ error: "RATE_LIMITED" });
    }
    expectRefusal(await login(ip, "GET", "zh"), "RATE_LIMITED", { lang: "zh" });
    expectRefusal(await login(ip, "POST", "ft"), "RATE_LIMITED", { lang: "ft" });
  });

  it("keeps a separate budget per address and per action", async () => {
    const ip = "10.1.0.2";
    for (let i = 0; i <= LIMIT; i++) {
      await login(ip, "POST");
    }
    expectRefusal(await login(ip, "POST"), "RATE_LIMITED");
    // Another address is not throttled, nor is another limited call from the same address.
    expect((await login("10.1.0.3", "GET")).data).not.toMatchObject({ error: "RATE_LIMITED" });
    const code = await h.app.inject({
      method: "GET",
      url: "/web/getCode?type=email&account=someone%40example.com&purpose=register",
      headers: { "x-forwarded-for": ip },
    });
    expect((code.json() as Envelope).code).toBe(0);
  });
});
