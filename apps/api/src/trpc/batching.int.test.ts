import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "../test/harness.ts";

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h?.close();
});

/**
 * The web batches the queries a page makes into one GET whose path lists every procedure
 * (`/trpc/a.b,c.d,…`). The router's default limit on a path parameter (100 characters) answered a
 * back-office page of a dozen queries with HTTP 414.
 */
describe("batched tRPC queries", () => {
  it("answers a batch as long as the web's longest (its URL kept under 4,000 characters)", async () => {
    const procedures = Array.from({ length: 40 }, (_, i) =>
      i % 2 === 0 ? "options.products" : "proofs.list",
    );
    const path = procedures.join(",");
    const input = encodeURIComponent(JSON.stringify(Object.fromEntries(procedures.map((_, i) => [i, {}]))));
    const url = `/trpc/${path}?batch=1&input=${input}`;
    expect(url.length).toBeLessThan(4000);
    expect(path.length).toBeGreaterThan(100);
    const res = await h.app.inject({ method: "GET", url, headers: { lang: "en" } });
    expect(res.statusCode).toBe(200);
    const body = res.json() as { result?: { data: unknown } }[];
    expect(body).toHaveLength(40);
    expect(body.every((r) => r.result !== undefined)).toBe(true);
  });
});
