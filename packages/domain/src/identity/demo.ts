import { randomBytes, randomInt } from "node:crypto";
import type { Db } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { postEntry } from "../ledger/index.ts";
import { getPolicy } from "../policy/index.ts";
import { users } from "./identity.table.ts";
import { hashSecret, newInviteCode } from "./secrets.ts";
import { createSession } from "./sessions.ts";

/**
 * web/tempLogin: a demo account with the simulated USDT amount the user chose (one of
 * `demo.amounts`), funded from the demo faucet in the demo book, which never exchanges value with
 * the real book. It expires after `demo.ttlDays`; "regenerate" makes a new one, "exit" logs out.
 */
export async function createDemoAccount(
  db: Db,
  params: { amount: string; lang: string; ip?: string; userAgent?: string },
) {
  const [amounts, ttlDays] = await Promise.all([
    getPolicy(db, "demo.amounts"),
    getPolicy(db, "demo.ttlDays"),
  ]);
  if (!amounts.includes(params.amount)) {
    throw new AppError("AMOUNT_INVALID", {}, "amount");
  }
  // Nobody logs in to a demo account with a password; this one is random and never shown.
  const passwordHash = await hashSecret(randomBytes(24).toString("base64url"), "anonymous");
  return db.transaction(async (tx) => {
    const uid = String(randomInt(10_000_000, 100_000_000));
    const [user] = await tx
      .insert(users)
      .values({
        uid: `D${uid}`,
        kind: "demo",
        passwordHash,
        nationality: "ZZ",
        inviteCode: newInviteCode(),
        nickname: `Demo${uid.slice(-4)}`,
        language: params.lang,
        demoExpiresAt: new Date(Date.now() + ttlDays * 86_400_000),
      })
      .returning({ id: users.id });
    if (!user) {
      throw new AppError("REQUEST_ERROR");
    }
    await postEntry(tx, {
      idempotencyKey: `demo:${user.id}:fund`,
      kind: "demo.fund",
      reference: { type: "user", id: user.id },
      postings: [
        { account: { system: "demo_faucet", book: "demo", currency: "USDT" }, amount: `-${params.amount}` },
        {
          account: { userId: user.id, book: "demo", wallet: "exchange", currency: "USDT" },
          amount: params.amount,
        },
      ],
    });
    const token = await createSession(tx, user.id, { ip: params.ip, userAgent: params.userAgent });
    return { token, userId: user.id };
  });
}
