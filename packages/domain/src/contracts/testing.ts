import { randomBytes } from "node:crypto";
import { MoneyDecimal } from "@northstar/shared/money";
import type { Db } from "../db/client.ts";
import { type User, users } from "../identity/index.ts";
import { type Book, getUserBalances, postEntry } from "../ledger/index.ts";

/** Test helpers of the contracts module (tests and the bench import them by path; not exported). */
export async function newContractUser(db: Db, funds: string, kind: Book = "real"): Promise<User> {
  const uid = String(10_000_000 + Math.floor(Math.random() * 89_999_999));
  const [user] = await db
    .insert(users)
    .values({
      uid,
      kind,
      passwordHash: "x",
      nationality: "GB",
      inviteCode: `C${randomBytes(5).toString("hex")}`,
      nickname: `U${uid}`,
    })
    .returning();
  if (!user) {
    throw new Error("insert failed");
  }
  if (funds !== "0") {
    await postEntry(db, {
      idempotencyKey: `grant:${user.id}`,
      kind: "test.grant",
      reference: { type: "test", id: user.id },
      postings: [
        { account: { system: "deposit_clearing:test", book: kind, currency: "USDT" }, amount: `-${funds}` },
        { account: { userId: user.id, book: kind, wallet: "contract", currency: "USDT" }, amount: funds },
      ],
    });
  }
  return user;
}

/** The user's contract wallet: available and held, as plain decimals. */
export async function contractWallet(db: Db, userId: number, book: Book = "real") {
  const row = (await getUserBalances(db, userId, book)).find(
    (b) => b.wallet === "contract" && b.currency === "USDT",
  );
  return {
    available: new MoneyDecimal(row?.available ?? 0).toFixed(),
    held: new MoneyDecimal(row?.held ?? 0).toFixed(),
  };
}
