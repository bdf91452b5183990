import type { TUpdatePasswordRequest } from "@northstar/shared/contracts/identity";
import { eq } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { boundTarget, codeTarget, findUserByAccount, parseAccountRef, type User } from "./accounts.ts";
import { consumeCode } from "./codes.ts";
import { users } from "./identity.table.ts";
import { checkLoginPassword, loginTarget } from "./login-password.ts";
import { assertPasswordLength } from "./register-user.ts";
import { clearAttempts } from "./secret-attempts.ts";
import { hashSecret } from "./secrets.ts";
import { revokeUserSessions } from "./sessions.ts";

/**
 * web/updatePassword in its three modes. A changed password ends every other session of the user
 * (they answer 1000); a reset by code ends all of them, since the user proved only the code.
 */
export async function updatePassword(
  db: Db,
  params: { input: TUpdatePasswordRequest; session?: { user: User; sessionId: number } },
): Promise<void> {
  const { input } = params;
  await assertPasswordLength(db, input.password);

  if (input.mode === "reset") {
    const ref = parseAccountRef(input);
    const user = await findUserByAccount(db, ref);
    // The code is checked first and an unknown account answers as a wrong code: no code was ever
    // sent to it, and the answer must not tell whether it exists.
    await consumeCode(db, { target: codeTarget(ref).target, purpose: "reset", code: input.code });
    if (user?.kind !== "real") {
      throw new AppError("CODE_WRONG", {}, "code");
    }
    await setPassword(db, user.id, input.password);
    return;
  }

  if (!params.session) {
    throw new AppError("LOGIN_REQUIRED");
  }
  const { user, sessionId } = params.session;
  // SPEC section 5: an email or phone must be bound before the password can be changed.
  if (!user.email && !user.phone) {
    throw new AppError("BIND_REQUIRED");
  }
  if (input.mode === "change") {
    await checkLoginPassword(db, user, input.old_password, "old_password");
  } else {
    await consumeCode(db, {
      target: boundTarget(user, input.type).target,
      purpose: "changepwd",
      code: input.code,
    });
  }
  await setPassword(db, user.id, input.password, sessionId);
}

async function setPassword(db: Db, userId: number, password: string, keepSessionId?: number): Promise<void> {
  const passwordHash = await hashSecret(password);
  await db.transaction(async (tx) => {
    await tx.update(users).set({ passwordHash, updatedAt: new Date() }).where(eq(users.id, userId));
    // A new password, proven by a code or by the old one, ends any lock on guessing the old one.
    await clearAttempts(tx, loginTarget(userId));
    await revokeUserSessions(tx, userId, "password_changed", keepSessionId);
  });
}
