import { randomBytes } from "node:crypto";
import { MoneyDecimal } from "@northstar/shared/money";
import { sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import type { User } from "../identity/index.ts";
import { users } from "../identity/index.ts";
import { kycApplications } from "../kyc/index.ts";
import { uploads } from "../uploads/index.ts";

/*
 * Helpers for the C2C tests (never imported by the product): users with primary KYC approved, a
 * proof upload row, and the ledger's view of a merchant's escrow.
 */

/** A real user; with `kyc` their primary verification is approved. */
export async function createC2cUser(db: Db, kyc = true): Promise<User> {
  const uid = randomBytes(6).toString("hex");
  const [user] = await db
    .insert(users)
    .values({ uid, passwordHash: "x", nationality: "GB", inviteCode: `C${uid}`, nickname: `C${uid}` })
    .returning();
  if (!user) {
    throw new Error("insert failed");
  }
  if (kyc) {
    await db.insert(kycApplications).values({
      userId: user.id,
      level: "primary",
      status: "approved",
      details: { name: "Test" },
      photos: [],
    });
  }
  return user;
}

/** An upload row owned by the user (the file itself is not needed by the order services). */
export async function createProofUpload(db: Db, userId: number): Promise<string> {
  const [row] = await db
    .insert(uploads)
    .values({ ownerUserId: userId, purpose: "proof", mime: "image/png", size: 1, sha256: "0" })
    .returning({ id: uploads.id });
  if (!row) {
    throw new Error("insert failed");
  }
  return row.id;
}

/** The ledger balances of a merchant's escrow and reserved accounts, and the user's coin balance. */
export async function ledgerStock(db: Db, merchantId: number) {
  const rows = await db.execute<{ system_code: string; balance: string }>(sql`
    select system_code, balance::text from ledger_accounts
    where system_code in (${`c2c_escrow:${merchantId}`}, ${`c2c_reserved:${merchantId}`})
    order by system_code`);
  const get = (code: string) =>
    new MoneyDecimal(rows.rows.find((r) => r.system_code === code)?.balance ?? "0").toFixed();
  return { escrow: get(`c2c_escrow:${merchantId}`), reserved: get(`c2c_reserved:${merchantId}`) };
}
