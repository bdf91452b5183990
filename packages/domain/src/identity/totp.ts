import { and, asc, eq, isNull, lt, notLike, or } from "drizzle-orm";
import { authenticator } from "otplib";
import type { Db, DbOrTx } from "../db/client.ts";
import { AppError } from "../errors.ts";
import type { User } from "./accounts.ts";
import { checkSecretLimited, userSubject } from "./secret-attempts.ts";
import { userTotp } from "./totp.table.ts";
import { isEncryptedTotpSecret, type TotpKeyring, totpKeyring } from "./totp-keys.ts";

// Accept the previous and next 30-second step too: phones' clocks drift.
authenticator.options = { window: 1 };
const STEP_MS = 30_000;

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
  const stored = totpKeyring().encrypt(secret, user.id);
  await db
    .insert(userTotp)
    .values({ userId: user.id, secret: stored })
    .onConflictDoUpdate({
      target: userTotp.userId,
      set: { secret: stored, lastStep: null, createdAt: new Date() },
    });
  const label = user.email ?? (user.phone ? `+${user.areaCode}${user.phone}` : user.uid);
  return { secret, uri: authenticator.keyuri(label, siteName, secret) };
}

export async function confirmGoogleBinding(db: Db, user: User, code: string): Promise<void> {
  const [row] = await db.select().from(userTotp).where(eq(userTotp.userId, user.id));
  if (!row) {
    throw new AppError("NOT_FOUND");
  }
  if (row.enabledAt) {
    throw new AppError("GOOGLE_ALREADY_BOUND");
  }
  await useCode(db, row, code, "code", { enabledAt: new Date() });
}

/** Checks a bound user's code (withdrawals); the code is then spent. */
export async function verifyGoogleCode(db: Db, userId: number, code: string): Promise<void> {
  const [row] = await db.select().from(userTotp).where(eq(userTotp.userId, userId));
  if (!row?.enabledAt) {
    throw new AppError("GOOGLE_CODE_WRONG", {}, "google_code");
  }
  await useCode(db, row, code, "google_code", {});
}

type TotpRow = typeof userTotp.$inferSelect;

/**
 * A code is checked under the user's one Google-code attempt limit, and is accepted only for a
 * time step newer than the last accepted one, claimed in one compare-and-set: of two requests with
 * the same code, one wins. A reused code (a right code already accepted, as a resent request carries)
 * is refused as used and gives its attempt back uncounted: resending a right code never locks.
 */
async function useCode(
  db: Db,
  row: TotpRow,
  code: string,
  field: string,
  alsoSet: Partial<Pick<TotpRow, "enabledAt">>,
): Promise<void> {
  await checkSecretLimited(
    db,
    { kind: "totp", subject: userSubject(row.userId) },
    { wrong: "GOOGLE_CODE_WRONG", locked: "GOOGLE_CODE_LOCKED", field },
    async () => {
      const now = Date.now();
      const delta = authenticator.clone({ epoch: now }).checkDelta(code, await openSecret(db, row));
      if (delta === null) {
        return false;
      }
      const step = Math.floor(now / STEP_MS) + delta;
      const claimed = await db
        .update(userTotp)
        .set({ lastStep: step, ...alsoSet })
        .where(
          and(
            eq(userTotp.userId, row.userId),
            or(isNull(userTotp.lastStep), lt(userTotp.lastStep, step)),
            alsoSet.enabledAt ? isNull(userTotp.enabledAt) : undefined,
          ),
        )
        .returning({ userId: userTotp.userId });
      if (claimed.length === 0) {
        throw new AppError("GOOGLE_CODE_USED", {}, field);
      }
      return true;
    },
  );
}

/** The clear secret. A row still in clear text (from before encryption) is encrypted on the spot. */
async function openSecret(db: Db, row: TotpRow): Promise<string> {
  const keyring = totpKeyring();
  if (isEncryptedTotpSecret(row.secret)) {
    return keyring.decrypt(row.secret, row.userId);
  }
  await db
    .update(userTotp)
    .set({ secret: keyring.encrypt(row.secret, row.userId) })
    .where(and(eq(userTotp.userId, row.userId), eq(userTotp.secret, row.secret)));
  return row.secret;
}

/**
 * Re-encrypts stored secrets under the keyring's current key, in one transaction with the rows
 * locked: all of them or none. `onlyClear` encrypts only rows still in clear text (done at every
 * start); otherwise every row under an older key is moved too (key rotation). A row whose key the
 * keyring lacks fails the whole run, changing nothing.
 */
export async function reencryptTotpSecrets(
  db: Db,
  keyring: TotpKeyring,
  options: { onlyClear?: boolean } = {},
): Promise<{ total: number; changed: number }> {
  return db.transaction(async (tx) => {
    const rows = await tx
      .select()
      .from(userTotp)
      .where(options.onlyClear ? notLike(userTotp.secret, "v1:%") : undefined)
      .orderBy(asc(userTotp.userId))
      .for("update");
    let changed = 0;
    for (const row of rows) {
      const clear = !isEncryptedTotpSecret(row.secret);
      if (!clear && keyring.isCurrent(row.secret)) {
        continue;
      }
      const secret = clear ? row.secret : keyring.decrypt(row.secret, row.userId);
      await tx
        .update(userTotp)
        .set({ secret: keyring.encrypt(secret, row.userId) })
        .where(eq(userTotp.userId, row.userId));
      changed += 1;
    }
    return { total: rows.length, changed };
  });
}
