import { randomBytes } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import { request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { setPolicy } from "@northstar/domain/policy";
import { POLICY } from "@northstar/shared/policy";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorText, query } from "../test/fixtures.ts";
import { createHarness, type Harness } from "../test/harness.ts";

/**
 * An upload is stored only when it arrived whole and within `uploads.maxBytes`. A file past the limit
 * used to be cut at exactly the limit and, depending on how its bytes reached the parser, stored so:
 * every oversize file here must be refused, leaving no row and no file, and every file within the
 * limit stored byte for byte.
 */
let h: Harness;
let base: string;
const LIMIT = 1024 * 1024;

beforeAll(async () => {
  h = await createHarness();
  await setPolicy(h.db, "uploads.maxBytes", LIMIT, "test");
  await setPolicy(h.db, "uploads.maxPerDay", 1000, "test");
  // Through a listening server too: a real socket delivers the body in chunks of its own.
  await h.app.listen({ port: 0, host: "127.0.0.1" });
  base = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  if (h) {
    await setPolicy(h.db, "uploads.maxBytes", POLICY["uploads.maxBytes"].default, "test");
  }
  await h?.close();
});

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/**
 * A file the type check accepts, of exactly `size` bytes, its content unique. Without CR bytes, so the
 * parser never holds a chunk's tail back as a possible boundary: chunks reach it as they were sent.
 */
const png = (size: number) =>
  Buffer.concat([
    PNG_SIGNATURE,
    randomBytes(size - PNG_SIGNATURE.length).map((b) => (b === 0x0d ? 0x0e : b)),
  ]);

type Answer = { code: number; message: string; data: { id?: string; error?: string; field?: string } };

function multipart(bytes: Buffer) {
  const boundary = `----northstar${randomBytes(8).toString("hex")}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="p.png"\r\nContent-Type: image/png\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    head,
    tail,
    body: Buffer.concat([head, bytes, tail]),
  };
}

/** Through app.inject: the whole body at once. */
async function injectUpload(path: "proof" | "avatar", token: string, bytes: Buffer): Promise<Answer> {
  const { contentType, body } = multipart(bytes);
  const res = await h.app.inject({
    method: "POST",
    url: `/uploads/${path}`,
    headers: { "content-type": contentType, authorization: `Bearer ${token}`, lang: "yn" },
    payload: body,
  });
  expect(res.statusCode).toBe(200);
  return res.json() as Answer;
}

/**
 * Over a socket, as browsers and HTTP clients send a file: the part's head, then the file read in
 * chunks of `chunk` bytes, then the closing boundary, each its own write.
 */
function socketUpload(
  path: "proof" | "avatar",
  token: string,
  bytes: Buffer,
  chunk: number,
): Promise<Answer> {
  const { contentType, head, tail } = multipart(bytes);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${base}/uploads/${path}`,
      {
        method: "POST",
        headers: {
          "content-type": contentType,
          // Chunked, as a client streaming a file sends it: each write reaches the parser as one piece.
          "transfer-encoding": "chunked",
          authorization: `Bearer ${token}`,
          lang: "yn",
        },
      },
      (res) => {
        const parts: Buffer[] = [];
        res.on("data", (c: Buffer) => parts.push(c));
        res.on("end", () => {
          try {
            expect(res.statusCode).toBe(200);
            resolve(JSON.parse(Buffer.concat(parts).toString("utf8")) as Answer);
          } catch (error) {
            reject(error);
          }
        });
      },
    );
    // The server may answer before reading the whole body; what it does not read is not an error here.
    req.on("error", reject);
    req.write(head);
    for (let at = 0; at < bytes.length; at += chunk) {
      req.write(bytes.subarray(at, at + chunk));
    }
    req.end(tail);
  });
}

const stored = async () => ({
  rows: (await query<{ n: number }>(h, "select count(*)::int as n from uploads"))[0]?.n,
  files: (await readdir(h.deps.config.uploadDir).catch(() => [] as string[])).length,
});

const tooLarge = {
  code: 1,
  message: errorText("UPLOAD_TOO_LARGE", "yn", { mb: 1 }),
  data: { error: "UPLOAD_TOO_LARGE", field: expect.any(String) },
};

/** Sizes past the limit: one byte over, a chunk's worth over, well over, and far over. */
const OVERSIZE = [
  LIMIT + 1,
  LIMIT + 2,
  LIMIT + 100,
  LIMIT + 4096,
  LIMIT + 16 * 1024,
  LIMIT + LIMIT / 2,
  2 * LIMIT,
  2 * LIMIT + 1,
  3 * LIMIT,
  5 * LIMIT,
  8 * LIMIT,
  LIMIT + 65_536,
  LIMIT + 8,
  LIMIT + 1000,
  LIMIT + 12_345,
  20 * LIMIT,
];

/** Chunk sizes that put the limit on a chunk boundary (the usual read sizes) and inside a chunk. */
const CHUNKS = [64 * 1024, 16 * 1024, 4096, 64 * 1024, 1000, 8192, 65_536, 32 * 1024];

describe("an upload past `uploads.maxBytes` is refused whole, never stored cut", () => {
  it("refuses 16 oversize uploads sent in parallel, through inject and over sockets, storing nothing", {
    timeout: 180_000,
  }, async () => {
    const u = await h.registerByEmail();
    const before = await stored();
    const viaInject = await Promise.all(OVERSIZE.map((size) => injectUpload("proof", u.token, png(size))));
    const viaSocket = await Promise.all(
      OVERSIZE.map((size, i) =>
        socketUpload(i % 2 ? "avatar" : "proof", u.token, png(size), CHUNKS[i % CHUNKS.length] ?? 1024),
      ),
    );
    for (const [i, answer] of [...viaInject, ...viaSocket].entries()) {
      expect(answer, `upload ${i} of ${OVERSIZE[i % OVERSIZE.length]} bytes`).toMatchObject(tooLarge);
    }
    expect(await stored()).toEqual(before);
    expect((await h.call("info", { token: u.token })).data).toMatchObject({ avatar: null });
  });

  it("refuses oversize uploads sent one after another, storing nothing", { timeout: 180_000 }, async () => {
    const u = await h.registerByEmail();
    const before = await stored();
    for (const [i, size] of OVERSIZE.entries()) {
      const chunk = CHUNKS[i % CHUNKS.length] ?? 1024;
      expect(await injectUpload("avatar", u.token, png(size)), `inject ${size}`).toMatchObject(tooLarge);
      expect(await socketUpload("proof", u.token, png(size), chunk), `socket ${size}/${chunk}`).toMatchObject(
        tooLarge,
      );
    }
    expect(await stored()).toEqual(before);
  });

  it("stores files just below and exactly at the limit byte for byte, in parallel with oversize ones", {
    timeout: 120_000,
  }, async () => {
    const u = await h.registerByEmail();
    const before = await stored();
    const within = [LIMIT, LIMIT - 1, LIMIT - 100, LIMIT, 1024, LIMIT - 4096, LIMIT, LIMIT - 1].map(png);
    const over = [LIMIT + 1, LIMIT + 1, 2 * LIMIT, LIMIT + 4096].map(png);
    const [okInject, okSocket, refused] = await Promise.all([
      Promise.all(within.map((bytes) => injectUpload("proof", u.token, bytes))),
      Promise.all(within.map((bytes, i) => socketUpload("proof", u.token, bytes, CHUNKS[i] ?? 1024))),
      Promise.all(over.map((bytes, i) => socketUpload("proof", u.token, bytes, CHUNKS[i] ?? 1024))),
    ]);
    for (const answer of refused) {
      expect(answer).toMatchObject(tooLarge);
    }
    for (const [i, answer] of [...okInject, ...okSocket].entries()) {
      expect(answer.code, answer.message).toBe(0);
      const sent = within[i % within.length] as Buffer;
      const id = answer.data.id as string;
      const onDisk = await readFile(join(h.deps.config.uploadDir, id));
      expect(onDisk.length, `upload ${i}`).toBe(sent.length);
      expect(onDisk.equals(sent), `upload ${i}`).toBe(true);
      const [row] = await query<{ size: number }>(h, "select size from uploads where id = $1", [id]);
      expect(row?.size).toBe(sent.length);
    }
    const after = await stored();
    expect(after.rows).toBe((before.rows ?? 0) + 2 * within.length);
    expect(after.files).toBe(before.files + 2 * within.length);
  });

  it("refuses a file whose part ends before its closing boundary (a cut-off body), storing nothing", async () => {
    const u = await h.registerByEmail();
    const before = await stored();
    for (const size of [1024, LIMIT - 1, LIMIT]) {
      const { contentType, head } = multipart(png(size));
      // The body stops inside the file: no closing boundary ever comes.
      const res = await h.app.inject({
        method: "POST",
        url: "/uploads/proof",
        headers: { "content-type": contentType, authorization: `Bearer ${u.token}`, lang: "yn" },
        payload: Buffer.concat([head, png(size).subarray(0, size - 10)]),
      });
      expect(res.statusCode, `size ${size}`).toBe(200);
      // Not "too large": the file was within the limit, the request was cut.
      expect(res.json(), `size ${size}`).toMatchObject({
        code: 1,
        message: errorText("MALFORMED_REQUEST", "yn"),
        data: { error: "MALFORMED_REQUEST", field: "proof" },
      });
    }
    expect(await stored()).toEqual(before);
  });
});
