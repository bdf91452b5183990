import { randomInt } from "node:crypto";
import { checkPasswordLength } from "@northstar/shared/contracts/common";
import type { TRegisterRequest } from "@northstar/shared/contracts/identity";
import type { Language } from "@northstar/shared/languages";
import { eq } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { getPolicy } from "../policy/index.ts";
import { codeTarget, findUserByAccount, parseAccountRef } from "./accounts.ts";
import { consumeCode } from "./codes.ts";
import { users } from "./identity.table.ts";
import { hashSecret, newInviteCode } from "./secrets.ts";
import { createSession } from "./sessions.ts";

const UNIQUE_VIOLATION = "23505";

export async function assertPasswordLength(db: Db, password: string, field = "password"): Promise<void> {
  const [min, max] = await Promise.all([
    getPolicy(db, "identity.loginPassword.minLength"),
    getPolicy(db, "identity.loginPassword.maxLength"),
  ]);
  if (!checkPasswordLength(password, min, max)) {
    throw new AppError("PASSWORD_LENGTH", { min, max }, field);
  }
}

/**
 * web/userRegister: creates a real account by email or phone after checking the code sent to it,
 * and opens a session. Every check that needs no code runs first, so a refusal keeps the code usable.
 */
export async function registerUser(
  db: Db,
  params: { input: TRegisterRequest; lang: Language; ip?: string; userAgent?: string },
): Promise<{ token: string; userId: number }> {
  const { input } = params;
  const ref = parseAccountRef(input);
  await assertPasswordLength(db, input.password);
  const inviteRequired = await getPolicy(db, "identity.inviteCode.required");
  if (inviteRequired && !input.invite_code) {
    throw new AppError("INVITE_CODE_REQUIRED", {}, "invite_code");
  }
  let invitedBy: number | null = null;
  if (input.invite_code) {
    const [inviter] = await db
      .select({ id: users.id, kind: users.kind })
      .from(users)
      .where(eq(users.inviteCode, input.invite_code.trim().toUpperCase()));
    // A demo account's code is no invitation: its trades are play money and the chain must be real.
    if (inviter?.kind !== "real") {
      throw new AppError("INVITE_CODE_INVALID", {}, "invite_code");
    }
    invitedBy = inviter.id;
  }
  if (await findUserByAccount(db, ref)) {
    throw new AppError("ACCOUNT_EXISTS", {}, "account");
  }
  const { target } = codeTarget(ref);
  await consumeCode(db, { target, purpose: "register", code: input.code });
  const passwordHash = await hashSecret(input.password, "anonymous");

  // uid and invite code are random; a collision is retried rather than checked first.
  for (let attempt = 0; attempt < 5; attempt++) {
    const uid = String(randomInt(10_000_000, 100_000_000));
    try {
      return await db.transaction(async (tx) => {
        const [user] = await tx
          .insert(users)
          .values({
            uid,
            email: ref.type === "email" ? ref.email : null,
            areaCode: ref.type === "phone" ? ref.areaCode : null,
            phone: ref.type === "phone" ? ref.phone : null,
            passwordHash,
            nationality: input.nationality,
            inviteCode: newInviteCode(),
            invitedBy,
            nickname: `U${uid}`,
            language: params.lang,
          })
          .returning({ id: users.id });
        if (!user) {
          throw new AppError("REQUEST_ERROR");
        }
        const token = await createSession(tx, user.id, { ip: params.ip, userAgent: params.userAgent });
        return { token, userId: user.id };
      });
    } catch (error) {
      const pgError =
        (error as { cause?: { code?: string; constraint?: string } }).cause ??
        (error as { code?: string; constraint?: string });
      if (pgError.code !== UNIQUE_VIOLATION) {
        throw error;
      }
      if (pgError.constraint === "users_email_key" || pgError.constraint === "users_phone_key") {
        throw new AppError("ACCOUNT_EXISTS", {}, "account");
      }
    }
  }
  throw new AppError("REQUEST_ERROR");
}
