import { eq } from "drizzle-orm";
import { authenticator } from "otplib";
import type { DbOrTx } from "../db/client.ts";
import { AppError } from "../errors.ts";
import type { User } from "../identity/accounts.ts";
import { userTotp } from "./funding.table.ts";

// Accept the previous and next 30-second step too: phones' clocks drift.
authenticator.options = { window: 1 };

export async function isGoogleBound(db: DbOrTx, userId: number): Promise<boolean> {
  const [row] = await db
    .select({ enabledAt: userTotp.enabledAt })
    .from(userTotp)
    .where(eq(userTotp.userId, userId));
  return Boolean(row?.enabledAt);
}

/**
 * Starts binding Google Authenticator: a new secret and the otpauth URI the page shows as a QR
 * code. Binding completes only when the user proves a first code.
 */
export async function startGoogleBinding(db: DbOrTx, user: User, siteName: string) {
  if (await isGoogleBound(db, user.id)) {
    throw new AppError("GOOGLE_ALREADY_BOUND");
  }
  const secret = authenticator.generateSecret(20);
  await db
    .insert(userTotp)
    .values({ userId: user.id, secret })
    .onConflictDoUpdate({ target: userTotp.userId, set: { secret, createdAt: new Date() } });
  const label = user.email ?? (user.phone ? `+${user.areaCode}${user.phone}` : user.uid);
  return { secret, uri: authenticator.keyuri(label, siteName, secret) };
}

export async function confirmGoogleBinding(db: DbOrTx, user: User, code: string): Promise<void> {
  const [row] = await db.select().from(userTotp).where(eq(userTotp.userId, user.id));
  if (!row) {
    throw new AppError("NOT_FOUND");
  }
  if (row.enabledAt) {
    throw new AppError("GOOGLE_ALREADY_BOUND");
  }
  if (!authenticator.check(code, row.secret)) {
    throw new AppError("GOOGLE_CODE_WRONG", {}, "code");
  }
  await db.update(userTotp).set({ enabledAt: new Date() }).where(eq(userTotp.userId, user.id));
}

export async function verifyGoogleCode(db: DbOrTx, userId: number, code: string): Promise<void> {
  const [row] = await db.select().from(userTotp).where(eq(userTotp.userId, userId));
  if (!row?.enabledAt || !authenticator.check(code, row.secret)) {
    throw new AppError("GOOGLE_CODE_WRONG", {}, "google_code");
  }
}
