import { randomBytes } from "node:crypto";
import { setPolicy } from "@northstar/domain/policy";
import { POLICY, type PolicyKey } from "@northstar/shared/policy";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { errorText, query, tokenHash } from "../test/fixtures.ts";
import { createHarness, type Harness } from "../test/harness.ts";

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h?.close();
});
const changed = new Set<PolicyKey>();
const policy = async (key: PolicyKey, value: number) => {
  changed.add(key);
  await setPolicy(h.db, key, value, "test");
};
afterEach(async () => {
  for (const key of changed) {
    await setPolicy(h.db, key, POLICY[key].default, "test");
  }
  changed.clear();
});

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** A file the type check accepts, of exactly `size` bytes. */
const png = (size: number) => Buffer.concat([PNG_SIGNATURE, Buffer.alloc(size - PNG_SIGNATURE.length, 7)]);
const MB = 1024 * 1024;

async function upload(path: "proof" | "avatar", token: string, bytes: Buffer, lang = "en") {
  const boundary = `----northstar${randomBytes(8).toString("hex")}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="p.png"\r\nContent-Type: image/png\r\n\r\n`,
  );
  const res = await h.app.inject({
    method: "POST",
    url: `/uploads/${path}`,
    headers: {
      "content-type": `multipart/form-data; boundary=${boundary}`,
      authorization: `Bearer ${token}`,
      lang,
    },
    payload: Buffer.concat([head, bytes, Buffer.from(`\r\n--${boundary}--\r\n`)]),
  });
  expect(res.statusCode).toBe(200);
  return res.json() as {
    code: number;
    message: string;
    data: { id?: string; error?: string; field?: string };
  };
}

const storedBy = async (token: string) =>
  (
    await query<{ n: number }>(
      h,
      "select count(*)::int as n from uploads where owner_user_id = (select user_id from sessions where token_hash = $1)",
      [tokenHash(token)],
    )
  )[0]?.n;

describe("the upload size follows policy", () => {
  it("accepts a file above 9 MB when the operator allows 12 MB", async () => {
    const u = await h.registerByEmail();
    await policy("uploads.maxBytes", 12 * MB);
    const res = await upload("proof", u.token, png(10 * MB));
    expect(res.code, res.message).toBe(0);
  });

  it("refuses a file over a lowered limit, naming that limit", async () => {
    const u = await h.registerByEmail();
    await policy("uploads.maxBytes", 1 * MB);
    for (const size of [MB + 1, 3 * MB]) {
      expect(await upload("proof", u.token, png(size), "jp"), `size ${size}`).toMatchObject({
        code: 1,
        message: errorText("UPLOAD_TOO_LARGE", "jp", { mb: 1 }),
        data: { error: "UPLOAD_TOO_LARGE" },
      });
    }
    expect((await upload("proof", u.token, png(MB))).code).toBe(0);
  });
});

describe("the upload quota per user", () => {
  it("refuses uploads past `uploads.maxPerDay` in 24 hours, translated, storing nothing", async () => {
    const u = await h.registerByEmail();
    const other = await h.registerByEmail();
    await policy("uploads.maxPerDay", 2);
    expect((await upload("proof", u.token, png(100))).code).toBe(0);
    expect((await upload("avatar", u.token, png(100))).code).toBe(0);
    const refused = await upload("proof", u.token, png(100), "hy");
    expect(refused).toMatchObject({
      code: 1,
      message: errorText("UPLOAD_DAILY_LIMIT", "hy", { count: 2 }),
      data: { error: "UPLOAD_DAILY_LIMIT" },
    });
    expect(await storedBy(u.token)).toBe(2);
    // Another user has a budget of their own.
    expect((await upload("proof", other.token, png(100))).code).toBe(0);
    // Uploads older than a day no longer count.
    await query(h, "update uploads set created_at = created_at - interval '25 hours'");
    expect((await upload("proof", u.token, png(100))).code).toBe(0);
  });

  it("refuses an upload that would take a user past `uploads.maxTotalBytes`", async () => {
    const u = await h.registerByEmail();
    await policy("uploads.maxTotalBytes", 2 * MB);
    expect((await upload("proof", u.token, png(MB))).code).toBe(0);
    expect(await upload("proof", u.token, png(MB + 1), "ty")).toMatchObject({
      code: 1,
      message: errorText("UPLOAD_STORAGE_FULL", "ty", { mb: 2 }),
      data: { error: "UPLOAD_STORAGE_FULL" },
    });
    expect(await storedBy(u.token)).toBe(1);
    expect((await upload("proof", u.token, png(MB))).code).toBe(0);
  });

  it("counts concurrent uploads exactly", async () => {
    const u = await h.registerByEmail();
    await policy("uploads.maxPerDay", 3);
    const results = await Promise.all(Array.from({ length: 6 }, () => upload("proof", u.token, png(100))));
    expect(results.filter((r) => r.code === 0)).toHaveLength(3);
    expect(await storedBy(u.token)).toBe(3);
  });
});
