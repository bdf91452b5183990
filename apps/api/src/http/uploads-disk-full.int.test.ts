import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readdir, rm, statfs, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { LANGUAGES, type Language } from "@northstar/shared/languages";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectRefusal, query } from "../test/fixtures.ts";
import { createHarness, type Harness } from "../test/harness.ts";

/*
 * The uploads directory on a full disk: a real file system (a 256 KiB tmpfs mounted over the
 * directory) that fills up in the middle of the upload's write, nothing of ours simulated. The
 * upload is refused with a translated STORAGE_FULL, leaves no partial file and no row, and the
 * same upload is stored once there is room again. Mounting needs root (or CAP_SYS_ADMIN): without
 * it this test fails, saying so, rather than pass without a full disk.
 */
const TMPFS_MAGIC = 0x01021994;
const TMPFS_BYTES = 256 * 1024;
/** Room left after the filler: less than the upload, so its write fails part-way. */
const LEFT_BYTES = 16 * 1024;
const UPLOAD_BYTES = 64 * 1024;
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const png = (size: number) => Buffer.concat([PNG_SIGNATURE, randomBytes(size - PNG_SIGNATURE.length)]);

let h: Harness;
let dir = "";
let mounted = false;
const logLines: string[] = [];

beforeAll(async () => {
  h = await createHarness({ logStream: { write: (line) => logLines.push(line) } });
  dir = h.deps.config.uploadDir;
  const mount = spawnSync("mount", ["-t", "tmpfs", "-o", `size=${TMPFS_BYTES},mode=0700`, "tmpfs", dir], {
    encoding: "utf8",
  });
  if (mount.status !== 0) {
    throw new Error(
      "This test mounts a small tmpfs over the uploads directory to fill a real disk, and needs the " +
        `privilege to mount (root or CAP_SYS_ADMIN), which this machine refused: ${mount.stderr || mount.error}`,
    );
  }
  mounted = true;
  const fs = await statfs(dir);
  expect(fs.type).toBe(TMPFS_MAGIC);
  expect(fs.blocks * fs.bsize).toBe(TMPFS_BYTES);
});

afterAll(async () => {
  if (mounted) {
    spawnSync("umount", [dir]);
  }
  await h?.close();
});

const freeBytes = async () => {
  const fs = await statfs(dir);
  return fs.bavail * fs.bsize;
};

/** Fills the file system up to `left` bytes of room (one filler file, replaced). */
async function fill(left: number) {
  await rm(join(dir, "filler"), { force: true });
  await writeFile(join(dir, "filler"), Buffer.alloc((await freeBytes()) - left, 1));
  expect(await freeBytes()).toBe(left);
}

async function upload(path: "proof" | "avatar", token: string, bytes: Buffer, lang: Language) {
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
  return res.json() as { code: number; message: string; data: { id?: string; error?: string }; time: number };
}

const rowsOf = (email: string) =>
  query<{ id: string; size: number; purpose: string }>(
    h,
    "select u.id, u.size, u.purpose from uploads u join users on users.id = u.owner_user_id where users.email = $1 order by u.created_at, u.id",
    [email],
  );

/** Every upload row names a file that is there, whole. */
async function expectEveryRowHasItsFile() {
  const rows = await query<{ id: string; size: number }>(h, "select id, size from uploads order by id");
  const files = new Set(await readdir(dir));
  for (const row of rows) {
    expect(files.has(row.id), `file of upload ${row.id}`).toBe(true);
  }
}

describe("uploads on a full disk", () => {
  it("refuses a proof with a translated STORAGE_FULL in every language, leaving no file and no row", async () => {
    const user = await h.registerByEmail();
    await fill(LEFT_BYTES);
    for (const lang of LANGUAGES) {
      const res = await upload("proof", user.token, png(UPLOAD_BYTES), lang);
      expectRefusal(res, "STORAGE_FULL", { lang });
      // The write that failed part-way left nothing: only the filler, and all the room it left.
      expect(await readdir(dir)).toEqual(["filler"]);
      expect(await freeBytes()).toBe(LEFT_BYTES);
    }
    expect(await rowsOf(user.email)).toEqual([]);
    await expectEveryRowHasItsFile();
    // Operators learn of it from the log.
    expect(logLines.some((line) => line.includes("uploads disk is full"))).toBe(true);
  });

  it("refuses an avatar the same way and keeps the user's avatar unchanged", async () => {
    const user = await h.registerByEmail();
    await fill(LEFT_BYTES);
    const res = await upload("avatar", user.token, png(UPLOAD_BYTES), "zh");
    expectRefusal(res, "STORAGE_FULL", { lang: "zh" });
    expect(await readdir(dir)).toEqual(["filler"]);
    expect(await rowsOf(user.email)).toEqual([]);
    const [row] = await query<{ avatar: string | null }>(
      h,
      "select avatar_upload_id as avatar from users where email = $1",
      [user.email],
    );
    expect(row?.avatar).toBeNull();
  });

  it("stores the same upload once there is room again", async () => {
    const user = await h.registerByEmail();
    await fill(LEFT_BYTES);
    const bytes = png(UPLOAD_BYTES);
    expectRefusal(await upload("proof", user.token, bytes, "en"), "STORAGE_FULL", { lang: "en" });
    await rm(join(dir, "filler"));
    const res = await upload("proof", user.token, bytes, "en");
    expect(res.code, res.message).toBe(0);
    const rows = await rowsOf(user.email);
    expect(rows).toEqual([{ id: res.data.id, size: UPLOAD_BYTES, purpose: "proof" }]);
    expect(await readdir(dir)).toEqual([res.data.id]);
    await expectEveryRowHasItsFile();
  });
});
