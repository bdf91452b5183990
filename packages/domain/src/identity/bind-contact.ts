import { isValidPhone } from "@northstar/shared/contracts/common";
import type { ZBindEmailRequestSchema, ZBindPhoneRequestSchema } from "@northstar/shared/contracts/identity";
import { eq } from "drizzle-orm";
import type { z } from "zod";
import type { Db } from "../db/client.ts";
import { AppError } from "../errors.ts";
import type { User } from "./accounts.ts";
import { findUserByAccount } from "./accounts.ts";
import { consumeCode } from "./codes.ts";
import { users } from "./identity.table.ts";

const UNIQUE_VIOLATION = "23505";

/** Binds (or replaces) the user's email after a code sent to the new address. */
export async function bindEmail(
  db: Db,
  user: User,
  input: z.output<typeof ZBindEmailRequestSchema>,
): Promise<void> {
  if (await findUserByAccount(db, { type: "email", email: input.email })) {
    throw new AppError("ALREADY_BOUND", {}, "email");
  }
  await consumeCode(db, { target: input.email, purpose: "bind", code: input.code });
  await saveContact(db, user.id, { email: input.email });
}

/** Binds (or replaces) the user's phone after a code sent to the new number. */
export async function bindPhone(
  db: Db,
  user: User,
  input: z.output<typeof ZBindPhoneRequestSchema>,
): Promise<void> {
  if (!isValidPhone(input.area_code, input.phone)) {
    throw new AppError("PHONE_FORMAT", {}, "phone");
  }
  if (await findUserByAccount(db, { type: "phone", areaCode: input.area_code, phone: input.phone })) {
    throw new AppError("ALREADY_BOUND", {}, "phone");
  }
  await consumeCode(db, { target: `+${input.area_code}${input.phone}`, purpose: "bind", code: input.code });
  await saveContact(db, user.id, { areaCode: input.area_code, phone: input.phone });
}

async function saveContact(
  db: Db,
  userId: number,
  values: { email: string } | { areaCode: string; phone: string },
): Promise<void> {
  try {
    await db
      .update(users)
      .set({ ...values, updatedAt: new Date() })
      .where(eq(users.id, userId));
  } catch (error) {
    const code = (error as { cause?: { code?: string } }).cause?.code ?? (error as { code?: string }).code;
    if (code === UNIQUE_VIOLATION) {
      throw new AppError("ALREADY_BOUND");
    }
    throw error;
  }
}
