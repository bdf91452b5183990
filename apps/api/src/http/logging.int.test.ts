import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "../test/harness.ts";

const lines: string[] = [];
let h: Harness;
beforeAll(async () => {
  h = await createHarness({ logStream: { write: (line) => lines.push(line) } });
});
afterAll(async () => {
  await h?.close();
});

describe("the request log", () => {
  it("never holds a session token or rtoken, whether sent in the query, the body or a header", async () => {
    const u = await h.registerByEmail();
    const secrets = [u.token, "rtokQuery123", "rtokBody4567"];
    lines.length = 0;
    await h.app.inject({
      method: "GET",
      url: `/web/info?token=${encodeURIComponent(u.token)}&rtoken=rtokQuery123&lang=en`,
    });
    await h.app.inject({
      method: "POST",
      url: `/web/info?lang=en&token=${u.token}`,
      payload: new URLSearchParams({ token: u.token, rtoken: "rtokBody4567" }).toString(),
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    await h.app.inject({
      method: "POST",
      url: "/web/info",
      payload: JSON.stringify({ token: u.token }),
      headers: { "content-type": "application/json", token: u.token, authorization: `Bearer ${u.token}` },
    });
    // A request that fails in the router (bad JSON) is logged with its error.
    await h.app.inject({
      method: "POST",
      url: `/trpc/identity.get?token=${u.token}`,
      payload: `{"token":"${u.token}"`,
      headers: { "content-type": "application/json" },
    });
    // The calls above were logged, with their paths, so the check below is not vacuous.
    const logged = lines.join("\n");
    expect(logged).toContain("/web/info");
    expect(logged).toContain("/trpc/identity.get");
    for (const secret of secrets) {
      expect(logged).not.toContain(secret);
      expect(logged).not.toContain(encodeURIComponent(secret));
    }
  });
});
