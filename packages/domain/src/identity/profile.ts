import { eq } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { getPolicy } from "../policy/index.ts";
import { storeUpload } from "../uploads/index.ts";
import type { User } from "./accounts.ts";
import { users } from "./identity.table.ts";

export async function updateNickname(db: Db, user: User, nickname: string): Promise<void> {
  const max = await getPolicy(db, "identity.nickname.maxLength");
  const clean = nickname.trim();
  // Control characters and angle brackets have no place in a name shown to others.
  if (clean.length < 1 || [...clean].length > max || /[\p{Cc}<>]/u.test(clean)) {
    throw new AppError("NICKNAME_INVALID", { max }, "nickname");
  }
  await db.update(users).set({ nickname: clean, updatedAt: new Date() }).where(eq(users.id, user.id));
}

export async function updateAvatar(
  db: Db,
  uploadDir: string,
  user: User,
  bytes: Uint8Array,
): Promise<string> {
  const { id } = await storeUpload(db, uploadDir, { ownerUserId: user.id, purpose: "avatar", bytes });
  await db.update(users).set({ avatarUploadId: id, updatedAt: new Date() }).where(eq(users.id, user.id));
  return id;
}

export async function updateLanguage(db: Db, userId: number, language: string): Promise<void> {
  await db.update(users).set({ language }).where(eq(users.id, userId));
}
