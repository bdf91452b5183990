import type {
  ZChangeTradePasswordRequestSchema,
  ZSetTradePasswordRequestSchema,
} from "@northstar/shared/contracts/identity";
import { and, eq, isNull } from "drizzle-orm";
import type { z } from "zod";
import type { Db } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { boundTarget, type User } from "./accounts.ts";
import { consumeCode } from "./codes.ts";
import { users } from "./identity.table.ts";
import { checkLoginPassword } from "./login-password.ts";
import { checkSecretLimited, userSubject } from "./secret-attempts.ts";
import { hashSecret, verifySecret } from "./secrets.ts";

/** /bindmpwd: sets the first 6-digit trade password, confirmed by the login password. */
export async function setTradePassword(
  db: Db,
  user: User,
  input: z.output<typeof ZSetTradePasswordRequestSchema>,
): Promise<void> {
  if (user.tradePasswordHash) {
    throw new AppError("TRADE_PASSWORD_ALREADY_SET");
  }
  await checkLoginPassword(db, user, input.login_password, "login_password");
  const hash = await hashSecret(input.trade_password);
  // Compare-and-set: two tabs setting it at once cannot both win.
  const updated = await db
    .update(users)
    .set({ tradePasswordHash: hash, updatedAt: new Date() })
    .where(and(eq(users.id, user.id), isNull(users.tradePasswordHash)))
    .returning({ id: users.id });
  if (updated.length === 0) {
    throw new AppError("TRADE_PASSWORD_ALREADY_SET");
  }
}

/** /editPasswordTrade: with the old trade password, or with a code to the bound email or phone. */
export async function changeTradePassword(
  db: Db,
  user: User,
  input: z.output<typeof ZChangeTradePasswordRequestSchema>,
): Promise<void> {
  if (!user.tradePasswordHash) {
    throw new AppError("TRADE_PASSWORD_NOT_SET");
  }
  if (input.mode === "old") {
    await checkTradePassword(
      db,
      user.id,
      user.tradePasswordHash,
      input.old_trade_password,
      "old_trade_password",
    );
  } else {
    await consumeCode(db, {
      target: boundTarget(user, input.type).target,
      purpose: "tradepwd",
      code: input.code,
    });
  }
  await db
    .update(users)
    .set({ tradePasswordHash: await hashSecret(input.trade_password), updatedAt: new Date() })
    .where(eq(users.id, user.id));
}

/** Checks a trade password before money moves (withdrawals, spot orders); later modules call this. */
export async function verifyTradePassword(db: Db, userId: number, tradePassword: string): Promise<void> {
  const [row] = await db.select({ hash: users.tradePasswordHash }).from(users).where(eq(users.id, userId));
  if (!row?.hash) {
    throw new AppError("TRADE_PASSWORD_NOT_SET");
  }
  await checkTradePassword(db, userId, row.hash, tradePassword, "trade_password");
}

/** Every call that checks the trade password counts toward one attempt limit per user. */
function checkTradePassword(db: Db, userId: number, hash: string, given: string, field: string) {
  return checkSecretLimited(
    db,
    { kind: "trade_password", subject: userSubject(userId) },
    { wrong: "TRADE_PASSWORD_WRONG", locked: "TRADE_PASSWORD_LOCKED", field },
    () => verifySecret(given, hash),
  );
}
