import { isValidPhone } from "@northstar/shared/contracts/common";
import type { TAccountRef } from "@northstar/shared/contracts/identity";
import { ZAccountRefSchema } from "@northstar/shared/contracts/identity";
import { and, asc, eq, or } from "drizzle-orm";
import type { DbOrTx } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { users } from "./identity.table.ts";

export type User = typeof users.$inferSelect;

/** Parses `type`, `account`, `area_code` into an email or a checked phone number. */
export function parseAccountRef(input: { type?: string; account?: string; area_code?: string }): TAccountRef {
  const parsed = ZAccountRefSchema.safeParse(input);
  if (!parsed.success) {
    const code = parsed.error.issues[0]?.message;
    throw new AppError(
      code === "PHONE_FORMAT" || code === "EMAIL_FORMAT" ? code : "ACCOUNT_OR_PASSWORD_EMPTY",
      {},
      "account",
    );
  }
  if (parsed.data.type === "phone" && !isValidPhone(parsed.data.areaCode, parsed.data.phone)) {
    throw new AppError("PHONE_FORMAT", {}, "account");
  }
  return parsed.data;
}

/** Where codes for this account go: a lower-case email or an E.164 phone number. */
export function codeTarget(ref: TAccountRef): { channel: "email" | "phone"; target: string } {
  return ref.type === "email"
    ? { channel: "email", target: ref.email }
    : { channel: "phone", target: `+${ref.areaCode}${ref.phone}` };
}

export async function findUserByAccount(db: DbOrTx, ref: TAccountRef): Promise<User | undefined> {
  const where =
    ref.type === "email"
      ? eq(users.email, ref.email)
      : and(eq(users.areaCode, ref.areaCode), eq(users.phone, ref.phone));
  const [user] = await db.select().from(users).where(where);
  return user;
}

/** An operator's search: the user whose uid, email or phone is the query. */
export async function findUserByLookup(db: DbOrTx, query: string): Promise<User | undefined> {
  const [user] = await db
    .select()
    .from(users)
    .where(or(eq(users.uid, query), eq(users.email, query.toLowerCase()), eq(users.phone, query)))
    // One user's uid could be another's phone: the oldest account answers, the same each time.
    .orderBy(asc(users.id))
    .limit(1);
  return user;
}

export async function getUserById(db: DbOrTx, id: number): Promise<User> {
  const [user] = await db.select().from(users).where(eq(users.id, id));
  if (!user) {
    throw new AppError("NOT_FOUND");
  }
  return user;
}

/** The signed-in user's own bound email or phone, for codes that confirm a sensitive change. */
export function boundTarget(
  user: User,
  type: "email" | "phone",
): { channel: "email" | "phone"; target: string } {
  if (type === "email" && user.email) {
    return { channel: "email", target: user.email };
  }
  if (type === "phone" && user.phone && user.areaCode) {
    return { channel: "phone", target: `+${user.areaCode}${user.phone}` };
  }
  throw new AppError("BIND_REQUIRED");
}
