import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorText, query } from "../test/fixtures.ts";
import { createHarness, type Harness } from "../test/harness.ts";

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h?.close();
});

/** A real 1×1 PNG. */
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  "base64",
);
const PNG_SIGNATURE = PNG.subarray(0, 8);

async function uploadAvatar(
  bytes: Buffer,
  options: { token?: string; filename?: string; type?: string; lang?: string } = {},
) {
  const boundary = `----northstar${randomBytes(8).toString("hex")}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${options.filename ?? "me.png"}"\r\n` +
      `Content-Type: ${options.type ?? "image/png"}\r\n\r\n`,
  );
  const headers: Record<string, string> = { "content-type": `multipart/form-data; boundary=${boundary}` };
  if (options.token) {
    headers.authorization = `Bearer ${options.token}`;
  }
  if (options.lang) {
    headers.lang = options.lang;
  }
  const res = await h.app.inject({
    method: "POST",
    url: "/uploads/avatar",
    headers,
    payload: Buffer.concat([head, bytes, Buffer.from(`\r\n--${boundary}--\r\n`)]),
  });
  expect(res.statusCode).toBe(200);
  return res.json() as { code: number; message: string; data: { id?: string; url?: string; error?: string } };
}

const uploadCount = async () =>
  (await query<{ n: number }>(h, "select count(*)::int as n from uploads"))[0]?.n;

describe("POST /uploads/avatar and GET /uploads/:id", () => {
  it("stores a real PNG as the avatar and serves it to its owner only", async () => {
    const owner = await h.registerByEmail();
    const stranger = await h.registerByEmail();
    const res = await uploadAvatar(PNG, { token: owner.token, filename: "avatar.jpg", type: "image/jpeg" });
    expect(res.code, res.message).toBe(0);
    const { id, url } = res.data;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(url).toBe(`/uploads/${id}`);
    expect((await h.call("info", { token: owner.token })).data).toMatchObject({ avatar: url });
    // The type comes from the content, not from the name or the client's content type.
    const [row] = await query<{ mime: string; size: number }>(
      h,
      "select mime, size from uploads where id = $1",
      [id],
    );
    expect(row).toEqual({ mime: "image/png", size: PNG.length });

    const mine = await h.app.inject({
      method: "GET",
      url: `/uploads/${id}`,
      headers: { authorization: `Bearer ${owner.token}` },
    });
    expect(mine.statusCode).toBe(200);
    expect(mine.headers["content-type"]).toBe("image/png");
    expect(mine.headers["x-content-type-options"]).toBe("nosniff");
    expect(mine.rawPayload.equals(PNG)).toBe(true);
    // A session token never travels in a URL (logs, history, Referer): the query is not read.
    const byQuery = await h.app.inject({ method: "GET", url: `/uploads/${id}?token=${owner.token}` });
    expect(byQuery.statusCode).toBe(404);
    expect(byQuery.rawPayload.includes(PNG)).toBe(false);

    for (const headers of [
      { authorization: `Bearer ${stranger.token}` },
      {},
      { authorization: "Bearer garbage" },
    ]) {
      const other = await h.app.inject({ method: "GET", url: `/uploads/${id}`, headers });
      expect(other.statusCode).toBe(404);
      expect(other.rawPayload.includes(PNG)).toBe(false);
    }
    const missing = await h.app.inject({
      method: "GET",
      url: "/uploads/00000000-0000-4000-8000-000000000000",
      headers: { authorization: `Bearer ${owner.token}` },
    });
    expect(missing.statusCode).toBe(404);
  });

  it("refuses a text file named .png with UPLOAD_TYPE", async () => {
    const u = await h.registerByEmail();
    const before = await uploadCount();
    const res = await uploadAvatar(Buffer.from("this is not an image\n".repeat(10)), {
      token: u.token,
      lang: "zh",
    });
    expect(res).toMatchObject({
      code: 1,
      message: errorText("UPLOAD_TYPE", "zh"),
      data: { error: "UPLOAD_TYPE" },
    });
    expect(await uploadCount()).toBe(before);
    expect((await h.call("info", { token: u.token })).data).toMatchObject({ avatar: null });
  });

  it("refuses a file over 8 MB with UPLOAD_TOO_LARGE", async () => {
    const u = await h.registerByEmail();
    const before = await uploadCount();
    for (const size of [8 * 1024 * 1024 + 1, 9 * 1024 * 1024 + 512 * 1024, 12 * 1024 * 1024]) {
      const big = Buffer.concat([PNG_SIGNATURE, Buffer.alloc(size - PNG_SIGNATURE.length, 1)]);
      const res = await uploadAvatar(big, { token: u.token });
      expect(res, `size ${size}`).toMatchObject({
        code: 1,
        message: errorText("UPLOAD_TOO_LARGE", "en", { mb: 8 }),
        data: { error: "UPLOAD_TOO_LARGE" },
      });
    }
    expect(await uploadCount()).toBe(before);
    // Exactly 8 MB is within the limit.
    const edge = Buffer.concat([PNG_SIGNATURE, Buffer.alloc(8 * 1024 * 1024 - PNG_SIGNATURE.length, 1)]);
    expect((await uploadAvatar(edge, { token: u.token })).code).toBe(0);
  });

  it("refuses an upload without a session or without a file", async () => {
    const res = await uploadAvatar(PNG);
    expect(res).toMatchObject({
      code: 2000,
      message: errorText("LOGIN_REQUIRED"),
      data: { error: "LOGIN_REQUIRED" },
    });
    const u = await h.registerByEmail();
    const boundary = "----northstarempty";
    const empty = await h.app.inject({
      method: "POST",
      url: "/uploads/avatar",
      headers: {
        "content-type": `multipart/form-data; boundary=${boundary}`,
        authorization: `Bearer ${u.token}`,
      },
      payload: `--${boundary}--\r\n`,
    });
    expect(empty.json()).toMatchObject({
      code: 1,
      message: errorText("UPLOAD_MISSING"),
      data: { error: "UPLOAD_MISSING" },
    });
  });
});
