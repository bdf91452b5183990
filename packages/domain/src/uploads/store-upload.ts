import { createHash } from "node:crypto";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { eq, sql } from "drizzle-orm";
import type { DbOrTx } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { getPolicy } from "../policy/index.ts";
import { uploads } from "./uploads.table.ts";

export type ImageMime = "image/jpeg" | "image/png" | "image/jp2";

/**
 * Detects the image type from the file's first bytes, never from its name or the client's
 * content type. JPEG: FF D8 FF. PNG: the 8-byte signature. JPEG 2000: the JP2 signature box or a
 * raw codestream (FF 4F FF 51).
 */
export function detectImageType(bytes: Uint8Array): ImageMime | null {
  const starts = (sig: number[]) => sig.every((b, i) => bytes[i] === b);
  if (starts([0xff, 0xd8, 0xff])) {
    return "image/jpeg";
  }
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) {
    return "image/png";
  }
  if (
    starts([0x00, 0x00, 0x00, 0x0c, 0x6a, 0x50, 0x20, 0x20, 0x0d, 0x0a, 0x87, 0x0a]) ||
    starts([0xff, 0x4f, 0xff, 0x51])
  ) {
    return "image/jp2";
  }
  return null;
}

/** Errors of a file system with no room left for the file (full, or the server's disk quota reached). */
const NO_ROOM = new Set(["ENOSPC", "EDQUOT"]);

/**
 * Writes an upload's file whole or not at all: a write that fails part-way (the disk filled up) has
 * its partial file removed, and a full disk is refused as `STORAGE_FULL` (translated, try later).
 */
async function writeWhole(uploadDir: string, path: string, bytes: Uint8Array): Promise<void> {
  try {
    await mkdir(uploadDir, { recursive: true });
    await writeFile(path, bytes, { mode: 0o600 });
  } catch (error) {
    await rm(path, { force: true });
    if (NO_ROOM.has((error as NodeJS.ErrnoException).code ?? "")) {
      throw new AppError("STORAGE_FULL", {}, "file");
    }
    throw error;
  }
}

/**
 * Stores a private image for its owner after checking its size, its content and the owner's quota
 * (`uploads.maxPerDay` in any 24 hours, `uploads.maxTotalBytes` in all). The row and the file exist
 * together or not at all: the file is written inside the row's transaction (a failed write rolls the
 * row back, leaving no partial file) and removed again when the transaction fails after it.
 */
export async function storeUpload(
  db: DbOrTx,
  uploadDir: string,
  params: { ownerUserId: number; purpose: string; bytes: Uint8Array },
): Promise<{ id: string; mime: ImageMime }> {
  const [maxBytes, maxPerDay, maxTotalBytes] = await Promise.all([
    getPolicy(db, "uploads.maxBytes"),
    getPolicy(db, "uploads.maxPerDay"),
    getPolicy(db, "uploads.maxTotalBytes"),
  ]);
  if (params.bytes.length === 0) {
    throw new AppError("UPLOAD_MISSING", {}, "file");
  }
  if (params.bytes.length > maxBytes) {
    throw new AppError("UPLOAD_TOO_LARGE", { mb: Math.floor(maxBytes / 1024 / 1024) }, "file");
  }
  const mime = detectImageType(params.bytes);
  if (!mime) {
    throw new AppError("UPLOAD_TYPE", {}, "file");
  }
  let written: string | undefined;
  try {
    return await db.transaction(async (tx) => {
      // Counted under a per-user lock, so parallel uploads cannot pass the quota together.
      await tx.execute(
        sql`select pg_advisory_xact_lock(hashtextextended(${`uploads:${params.ownerUserId}`}, 0))`,
      );
      const [usage] = await tx
        .select({
          today: sql<number>`count(*) filter (where ${uploads.createdAt} > now() - interval '24 hours')::int`,
          bytes: sql<string>`coalesce(sum(${uploads.size}), 0)::text`,
        })
        .from(uploads)
        .where(eq(uploads.ownerUserId, params.ownerUserId));
      if ((usage?.today ?? 0) >= maxPerDay) {
        throw new AppError("UPLOAD_DAILY_LIMIT", { count: maxPerDay }, "file");
      }
      if (Number(usage?.bytes ?? 0) + params.bytes.length > maxTotalBytes) {
        throw new AppError("UPLOAD_STORAGE_FULL", { mb: Math.floor(maxTotalBytes / 1024 / 1024) }, "file");
      }
      const [row] = await tx
        .insert(uploads)
        .values({
          ownerUserId: params.ownerUserId,
          purpose: params.purpose,
          mime,
          size: params.bytes.length,
          sha256: createHash("sha256").update(params.bytes).digest("hex"),
        })
        .returning({ id: uploads.id });
      if (!row) {
        throw new AppError("REQUEST_ERROR");
      }
      // Written inside the transaction: a failed write leaves no row pointing at a missing file.
      const path = join(uploadDir, row.id);
      await writeWhole(uploadDir, path, params.bytes);
      written = path;
      return { id: row.id, mime };
    });
  } catch (error) {
    // The commit failed after the write: no row names the file, so it goes.
    if (written) {
      await rm(written, { force: true });
    }
    throw error;
  }
}

/** The user who uploaded a file; undefined when there is no such upload. */
export async function uploadOwner(db: DbOrTx, id: string): Promise<number | undefined> {
  const [row] = await db.select({ owner: uploads.ownerUserId }).from(uploads).where(eq(uploads.id, id));
  return row?.owner;
}

/** Reads an upload for its owner or an operator; anyone else gets NOT_FOUND, as if it did not exist. */
export async function readUpload(
  db: DbOrTx,
  uploadDir: string,
  params: { id: string; viewer: { userId: number } | { operatorId: number } },
): Promise<{ mime: string; bytes: Buffer }> {
  if (!/^[0-9a-f-]{36}$/.test(params.id)) {
    throw new AppError("NOT_FOUND");
  }
  const [row] = await db.select().from(uploads).where(eq(uploads.id, params.id));
  if (!row || ("userId" in params.viewer && row.ownerUserId !== params.viewer.userId)) {
    throw new AppError("NOT_FOUND");
  }
  return { mime: row.mime, bytes: await readFile(join(uploadDir, row.id)) };
}
