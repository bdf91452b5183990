import { randomBytes } from "node:crypto";
import { MoneyDecimal } from "@northstar/shared/money";
import { eq, inArray } from "drizzle-orm";
import type { Redis } from "ioredis";
import type { Db } from "../db/client.ts";
import type { User } from "../identity/index.ts";
import { users } from "../identity/index.ts";
import { getUserBalances, postEntry, type Wallet } from "../ledger/index.ts";
import { commandStream } from "./commands.ts";
import { spotOrders, spotStreamCursors } from "./spot.table.ts";

/*
 * Helpers for the spot tests (never imported by the product): traders funded by ledger grants,
 * and waiting for the matcher.
 */

/** A user of the given book with `funds` (currency → amount) in one wallet (the exchange by default). */
export async function createTrader(
  db: Db,
  funds: Record<string, string>,
  kind: "real" | "demo" = "real",
  wallet: Wallet = "exchange",
): Promise<User> {
  const uid = randomBytes(6).toString("hex");
  const [user] = await db
    .insert(users)
    .values({ uid, kind, passwordHash: "x", nationality: "GB", inviteCode: `T${uid}`, nickname: `T${uid}` })
    .returning();
  if (!user) {
    throw new Error("insert failed");
  }
  for (const [currency, amount] of Object.entries(funds)) {
    await postEntry(db, {
      idempotencyKey: `test-grant:${user.id}:${currency}`,
      kind: "test.grant",
      reference: { type: "user", id: user.id },
      postings: [
        { account: { system: "house", book: kind, currency }, amount: `-${amount}` },
        { account: { userId: user.id, book: kind, wallet, currency }, amount },
      ],
    });
  }
  return user;
}

/** A user's exchange-wallet balance of one currency, trailing zeros off. */
export async function balanceOf(db: Db, user: User, currency: string) {
  const rows = await getUserBalances(db, user.id, user.kind === "demo" ? "demo" : "real");
  const row = rows.find((r) => r.wallet === "exchange" && r.currency === currency);
  return {
    available: new MoneyDecimal(row?.available ?? "0").toFixed(),
    held: new MoneyDecimal(row?.held ?? "0").toFixed(),
  };
}

export async function waitUntil<T>(probe: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 15_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (done(value)) {
      return value;
    }
    if (Date.now() > until) {
      throw new Error(`timed out waiting; last value: ${JSON.stringify(value).slice(0, 500)}`);
    }
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Waits until the matcher has taken every given order (none is pending any more). */
export async function settled(db: Db, ids: number[], timeoutMs = 30_000) {
  return waitUntil(
    async () => {
      const rows = await db.select().from(spotOrders).where(inArray(spotOrders.id, ids));
      return ids.map((id) => rows.find((r) => r.id === id)).filter((r) => r !== undefined);
    },
    (rows) => rows.length === ids.length && rows.every((r) => r.status !== "pending"),
    timeoutMs,
  );
}

export async function orderRow(db: Db, id: number) {
  const [row] = await db.select().from(spotOrders).where(eq(spotOrders.id, id));
  return row;
}

/**
 * Waits until the matcher has committed every command appended to these markets' streams: each
 * stream's last id is its committed cursor. `settled` is not enough before comparing outcomes: an
 * order taken is no longer pending, while a cancel sent after it may still wait in the stream.
 */
export async function drained(db: Db, redis: Redis, prefix: string, symbols: string[], timeoutMs = 90_000) {
  return waitUntil(
    async () => {
      const cursors = await db
        .select()
        .from(spotStreamCursors)
        .where(inArray(spotStreamCursors.symbol, symbols))
        .orderBy(spotStreamCursors.symbol);
      const behind: string[] = [];
      for (const symbol of symbols) {
        const info = (await redis.call("XINFO", "STREAM", commandStream(prefix, symbol)).catch(() => null)) as
          | unknown[]
          | null;
        const at = info ? info.indexOf("last-generated-id") : -1;
        const last = at >= 0 ? String(info?.[at + 1]) : null;
        const committed = cursors.find((c) => c.symbol === symbol)?.lastId ?? null;
        // A market named here was sent commands: no stream is a wrong name, not an idle market.
        if (last === null || last !== committed) {
          behind.push(`${symbol}: ${committed ?? "nothing"} of ${last ?? "no stream"}`);
        }
      }
      return behind;
    },
    (behind) => behind.length === 0,
    timeoutMs,
  );
}
