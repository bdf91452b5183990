import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliCompressSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "../test/harness.ts";

// A small built web app as the build leaves it: hashed assets with their .br and .gz beside them.
const SCRIPT = `export const greeting = "${"hello ".repeat(200)}";\n`;
const HTML = `<!doctype html><html><body><div id="root"></div>${" ".repeat(2000)}</body></html>`;
let h: Harness;
let dist: string;
beforeAll(async () => {
  dist = await mkdtemp(join(tmpdir(), "northstar-web-"));
  await mkdir(join(dist, "assets"));
  const files: Record<string, string> = { "assets/index-Ab12Cd34.js": SCRIPT, "index.html": HTML };
  for (const [name, text] of Object.entries(files)) {
    await writeFile(join(dist, name), text);
    await writeFile(join(dist, `${name}.br`), brotliCompressSync(text));
    await writeFile(join(dist, `${name}.gz`), gzipSync(text));
  }
  await writeFile(join(dist, "logo.svg"), "<svg/>");
  h = await createHarness({ webDist: dist });
});
afterAll(async () => {
  await h?.close();
  await rm(dist, { recursive: true, force: true });
});

const get = (url: string, encoding?: string) =>
  h.app.inject({ method: "GET", url, headers: encoding ? { "accept-encoding": encoding } : {} });

describe("the built web app's assets", () => {
  it("sends the brotli file to a client that accepts it, as JavaScript", async () => {
    const response = await get("/assets/index-Ab12Cd34.js", "gzip, deflate, br");
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-encoding"]).toBe("br");
    expect(response.headers["content-type"]).toMatch(/javascript/);
    expect(response.headers.vary).toMatch(/accept-encoding/i);
    expect(response.rawPayload.equals(brotliCompressSync(SCRIPT))).toBe(true);
  });

  it("sends gzip to a client without brotli, and the plain file to one that accepts neither", async () => {
    const gzip = await get("/assets/index-Ab12Cd34.js", "gzip");
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(gzip.rawPayload.equals(gzipSync(SCRIPT))).toBe(true);
    const plain = await get("/assets/index-Ab12Cd34.js");
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body).toBe(SCRIPT);
  });

  it("lets browsers keep hashed assets for a year without asking again", async () => {
    const response = await get("/assets/index-Ab12Cd34.js", "br");
    expect(response.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
  });

  it("has the browser revalidate index.html and unhashed files, at / and at client routes", async () => {
    for (const url of ["/", "/currencyTrade", "/index.html"]) {
      const response = await get(url, "br");
      expect(response.statusCode, url).toBe(200);
      expect(response.headers["cache-control"], url).toBe("no-cache");
      expect(response.headers["content-type"], url).toMatch(/text\/html/);
    }
    const logo = await get("/logo.svg");
    expect(logo.headers["cache-control"]).toBe("no-cache");
  });
});
