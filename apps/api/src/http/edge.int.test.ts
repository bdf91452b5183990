import type { InjectOptions } from "fastify";
import helmet from "helmet";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Envelope } from "../legacy/define.ts";
import { errorText, expectRefusal, newEmail, query } from "../test/fixtures.ts";
import { createHarness, type Harness } from "../test/harness.ts";
import { SECURITY_POLICY } from "./security-headers.ts";

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h?.close();
});

const codeRows = async (target: string) =>
  (
    await query<{ n: number }>(h, "select count(*)::int as n from verification_codes where target = $1", [
      target,
    ])
  )[0]?.n;

describe("HEAD on action routes", () => {
  it("never runs a legacy call: HEAD /web/getCode creates no code", async () => {
    const email = newEmail("head");
    const qs = new URLSearchParams({ type: "email", account: email, purpose: "register" });
    const head = await h.app.inject({ method: "HEAD", url: `/web/getCode?${qs}` });
    expect(head.statusCode).not.toBe(200);
    expect(await codeRows(email)).toBe(0);
    // The same call by GET does send a code, so the HEAD above was refused, not a no-op by chance.
    const get = await h.app.inject({ method: "GET", url: `/web/getCode?${qs}` });
    expect((get.json() as Envelope).code).toBe(0);
    expect(await codeRows(email)).toBe(1);
  });

  it("still answers HEAD on the health check", async () => {
    expect((await h.app.inject({ method: "HEAD", url: "/health" })).statusCode).toBe(200);
  });
});

describe("security headers", () => {
  it("are helmet's, on every response, as helmet itself sets them", async () => {
    const res = await h.app.inject({ method: "GET", url: "/health" });
    const direct = new Map<string, string>();
    helmet(SECURITY_POLICY)(
      {} as never,
      {
        setHeader: (k: string, v: unknown) => direct.set(k.toLowerCase(), String(v)),
        removeHeader() {},
      } as never,
      () => {},
    );
    expect(direct.size).toBeGreaterThan(8);
    for (const [name, value] of direct) {
      expect(res.headers[name], name).toBe(value);
    }
    expect(res.headers["x-frame-options"]).toBe("SAMEORIGIN");
    expect(res.headers["x-powered-by"]).toBeUndefined();
  });
});

describe("upgrade-insecure-requests", () => {
  it("is not sent over plain HTTP, nor on a forwarded https claim when proxies are not trusted", async () => {
    for (const headers of [{}, { "x-forwarded-proto": "https" }]) {
      const res = await h.app.inject({ method: "GET", url: "/health", headers });
      const csp = String(res.headers["content-security-policy"]);
      expect(csp).toContain("default-src 'self'");
      expect(csp).not.toContain("upgrade-insecure-requests");
    }
  });
});

describe("unknown and malformed web/* calls", () => {
  it("answers an unknown call with the envelope in the request's language, by query, body or header", async () => {
    const cases = [
      { method: "GET" as const, url: "/web/noSuchCall?lang=zh", lang: "zh" as const },
      {
        method: "POST" as const,
        url: "/web/noSuchCall",
        payload: "lang=jp&x=1",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        lang: "jp" as const,
      },
      { method: "POST" as const, url: "/web/noSuchCall", headers: { lang: "ty" }, lang: "ty" as const },
    ];
    for (const { lang, ...request } of cases) {
      const res = await h.app.inject(request);
      expect(res.statusCode, request.url).toBe(200);
      expectRefusal(res.json() as Envelope, "UNKNOWN_CALL", { lang });
    }
  });

  it("answers an unreadable body with the envelope, translated, and runs nothing", async () => {
    const email = newEmail("badjson");
    for (const request of [
      { payload: `{"type":"email","account":"${email}"`, headers: { "content-type": "application/json" } },
      { payload: "not json", headers: { "content-type": "application/json" } },
      { payload: "<x/>", headers: { "content-type": "application/xml" } },
    ]) {
      const res = await h.app.inject({
        method: "POST",
        url: "/web/getCode?lang=xby",
        payload: request.payload,
        headers: request.headers,
      });
      expect(res.statusCode, request.payload).toBe(200);
      expectRefusal(res.json() as Envelope, "MALFORMED_REQUEST", { lang: "xby" });
    }
    expect(await codeRows(email)).toBe(0);
  });
});

describe("malformed tRPC requests", () => {
  type TrpcError = {
    error?: {
      message: string;
      code: number;
      data: { code: string; responseCode: number; errorCode: string };
    };
  };
  const send = async (request: InjectOptions) => {
    const res = await h.app.inject(request);
    return { status: res.statusCode, body: res.json() as TrpcError | TrpcError[] };
  };
  const firstError = (body: TrpcError | TrpcError[]) => (Array.isArray(body) ? body[0] : body)?.error;

  it("answers a client error in tRPC's shape, translated, never a 500", async () => {
    const json = { "content-type": "application/json", lang: "hy" };
    const cases = [
      // Bad JSON.
      { method: "POST" as const, url: "/trpc/admin.login", payload: '{"username":', headers: json },
      // Input of the wrong shape.
      { method: "POST" as const, url: "/trpc/admin.login", payload: '{"username":[1,2]}', headers: json },
      { method: "GET" as const, url: "/trpc/market.instrument?input=%7Bnot-json", headers: { lang: "hy" } },
      { method: "GET" as const, url: "/trpc/market.instrument?input=42", headers: { lang: "hy" } },
      // An unknown procedure.
      { method: "POST" as const, url: "/trpc/nothing.here", payload: "{}", headers: json },
      // A batch whose body is not what its paths announce.
      { method: "POST" as const, url: "/trpc/admin.login,admin.login?batch=1", payload: "[1", headers: json },
      {
        method: "POST" as const,
        url: "/trpc/admin.login,admin.login?batch=1",
        payload: '"x"',
        headers: json,
      },
      {
        method: "GET" as const,
        url: "/trpc/market.instrument?batch=1&input=%5B%5D",
        headers: { lang: "hy" },
      },
      // A query called as a mutation.
      { method: "POST" as const, url: "/trpc/policy.getPublic", payload: "{}", headers: json },
    ];
    for (const request of cases) {
      const { status, body } = await send(request);
      const label = `${request.method} ${request.url} ${"payload" in request ? request.payload : ""}`;
      expect(status, label).toBeGreaterThanOrEqual(400);
      expect(status, label).toBeLessThan(500);
      const error = firstError(body);
      expect(error?.data.responseCode, label).toBe(1);
      expect(error?.message, label).not.toMatch(/\b(errors|fields)\.[A-Za-z]/);
      const code = error?.data.errorCode;
      expect(["MALFORMED_REQUEST", "UNKNOWN_CALL", "FIELD_INVALID"], label).toContain(code);
      if (code === "MALFORMED_REQUEST" || code === "UNKNOWN_CALL") {
        expect(error?.message, label).toBe(errorText(code, "hy"));
      }
    }
  });
});
