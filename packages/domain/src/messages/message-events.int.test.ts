import { randomBytes } from "node:crypto";
import { UNREAD_BADGE_CAP } from "@northstar/shared/contracts/messages";
import type { TPlaceOrderRequest } from "@northstar/shared/contracts/spot";
import { translate } from "@northstar/shared/i18n";
import type { Language } from "@northstar/shared/languages";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type C2cDeps,
  confirmC2cOrder,
  createC2cOrder,
  createMerchant,
  expireC2cOrder,
  moveMerchantStock,
  rejectC2cOrder,
  submitC2cProof,
} from "../c2c/index.ts";
import { createDb, type Db } from "../db/client.ts";
import { type User, users } from "../identity/index.ts";
import { kycApplications } from "../kyc/index.ts";
import { seedDatabase } from "../setup/index.ts";
import { placeOrder, type SpotDeps, SpotMatcher } from "../spot/index.ts";
import { createTrader, settled } from "../spot/testing.ts";
import { createTestDatabase, testRedisUrl } from "../test-support/index.ts";
import { uploads } from "../uploads/index.ts";
import {
  addMessage,
  addMessages,
  countUnread,
  listMessages,
  messageBadgesSettled,
  publishUserEvent,
  useMessagePublisher,
  userEventsChannel,
} from "./index.ts";

/**
 * Messages made by other modules' events (spot fills in the matcher, C2C order moves), and the live
 * badge: announced on the owner's `user` channel (the Redis channel the market socket forwards) by
 * whichever process committed them, never for a rolled-back transaction, with one gapless sequence
 * per user however many processes publish on it.
 */
let db: Db;
let redis: Redis;
let subscriber: Redis;
let matcher: SpotMatcher;
let spot: SpotDeps;
let teardown: () => Promise<void>;
const prefix = `test:msgev:${randomBytes(3).toString("hex")}`;
const clock = { now: new Date(Date.UTC(2026, 5, 1, 8, 0, 0)) };
const c2c = (): C2cDeps => ({ db, now: () => clock.now });

type Wire = { ch: string; seq: number; ts: number; data: { type?: string; unread?: number } };
const heard = new Map<string, Wire[]>();

beforeAll(async () => {
  const database = await createTestDatabase();
  const conn = createDb(database.url, { max: 20 });
  conn.pool.on("error", () => {});
  db = conn.db;
  await seedDatabase(db);
  redis = new Redis(testRedisUrl());
  subscriber = new Redis(testRedisUrl());
  subscriber.on("message", (ch: string, raw: string) => heard.get(ch)?.push(JSON.parse(raw) as Wire));
  // As the API and the worker do at start: this handle's commits announce badges.
  useMessagePublisher(db, redis, prefix);
  spot = { db, redis, prefix };
  matcher = new SpotMatcher({
    db,
    redis: new Redis(testRedisUrl()),
    prefix,
    blockMs: 10,
    sweepAfterMs: 500,
    catalogueCheckMs: 200,
  });
  await matcher.start();
  teardown = async () => {
    await matcher.stop();
    subscriber.disconnect();
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) {
      await redis.del(...keys);
    }
    redis.disconnect();
    await conn.close();
    await database.drop();
  };
}, 60_000);
afterAll(async () => {
  await teardown?.();
});

/** A real user; with `kyc` their primary verification is approved (C2C asks for it). */
async function createC2cUser(kyc = true): Promise<User> {
  const uid = randomBytes(6).toString("hex");
  const [user] = await db
    .insert(users)
    .values({ uid, passwordHash: "x", nationality: "GB", inviteCode: `M${uid}`, nickname: `M${uid}` })
    .returning();
  if (!user) {
    throw new Error("insert failed");
  }
  if (kyc) {
    await db
      .insert(kycApplications)
      .values({ userId: user.id, level: "primary", status: "approved", details: {}, photos: [] });
  }
  return user;
}

async function createProofUpload(userId: number): Promise<string> {
  const [row] = await db
    .insert(uploads)
    .values({ ownerUserId: userId, purpose: "proof", mime: "image/png", size: 1, sha256: "0" })
    .returning({ id: uploads.id });
  return row?.id ?? "";
}

/** Everything published on the user's `user` channel from now on. */
async function listen(userId: number): Promise<Wire[]> {
  const ch = userEventsChannel(prefix, userId);
  const events: Wire[] = [];
  heard.set(ch, events);
  await subscriber.subscribe(ch);
  return events;
}
const badges = (events: Wire[]) => events.filter((e) => e.data.type === "messages").map((e) => e.data.unread);

async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs = 15_000) {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) {
      throw new Error("timed out");
    }
    await new Promise((r) => setTimeout(r, 25));
  }
}

const inbox = async (user: User | number, lang: Language = "en") =>
  listMessages(db, typeof user === "number" ? user : user.id, lang, { page: 1, pageSize: 50 });

const limit = (
  symbol: string,
  side: "buy" | "sell",
  price: string,
  quantity: string,
): TPlaceOrderRequest => ({
  symbol,
  side,
  type: "limit",
  time_in_force: "gtc",
  price,
  quantity,
});

async function place(user: User, order: TPlaceOrderRequest) {
  const view = await placeOrder(spot, user, order);
  const [row] = await settled(db, [view.id]);
  return row as NonNullable<typeof row>;
}

describe("spot fills", () => {
  it("tell each order's owner once, in their language, live; a bystander hears nothing; one gapless sequence", async () => {
    const maker = await createTrader(db, { BTC: "1" });
    const taker = await createTrader(db, { USDT: "100000" });
    const bystander = await createTrader(db, { USDT: "1000" });
    const takerEvents = await listen(taker.id);
    const bystanderEvents = await listen(bystander.id);

    await place(maker, limit("BTCUSDT", "sell", "60000", "0.1"));
    const bid = await place(taker, limit("BTCUSDT", "buy", "60000", "0.1"));
    expect(bid.status).toBe("filled");
    await waitFor(() => badges(takerEvents).includes(1));

    const mine = await inbox(taker);
    expect(mine.total).toBe(1);
    expect(mine.list[0]).toMatchObject({
      kind: "spot.filled",
      title: translate("en", "messages.kind.spot.filled.title"),
    });
    expect(mine.list[0]?.body).toBe(
      translate("en", "messages.kind.spot.filled.body", {
        side: translate("en", "messages.side.buy"),
        symbol: "BTCUSDT",
        filledQty: "0.1",
        base: "BTC",
        filledQuote: "6,000",
        quote: "USDT",
      }),
    );
    expect((await inbox(taker, "zh")).list[0]?.body).toContain(translate("zh", "messages.side.buy"));
    const theirs = await inbox(maker);
    expect(theirs.list.map((m) => m.kind)).toEqual(["spot.filled"]);
    expect(theirs.list[0]?.body).toContain(translate("en", "messages.side.sell"));
    expect((await inbox(bystander)).total).toBe(0);
    expect(bystanderEvents).toEqual([]);

    // The matcher's order and balance events and the badge share the channel: one sequence, no gap.
    const seqs = takerEvents.map((e) => e.seq);
    expect(new Set(takerEvents.map((e) => e.data.type))).toEqual(
      new Set(["spot.order", "balance", "messages"]),
    );
    expect(seqs).toEqual(seqs.map((_, i) => (seqs[0] as number) + i));
  });

  it("a market order sweeping 50 levels makes one message; a resting order filled bit by bit makes two", async () => {
    const makers = await Promise.all(Array.from({ length: 5 }, () => createTrader(db, { SOL: "10" })));
    const taker = await createTrader(db, { USDT: "10000" });
    const levels = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        placeOrder(spot, makers[i % 5] as User, limit("SOLUSDT", "sell", String(100 + i), "1")),
      ),
    );
    await settled(
      db,
      levels.map((o) => o.id),
    );
    const takerEvents = await listen(taker.id);
    // 1 SOL at each of 100..149: 6225 USDT takes the whole book.
    const sweep = await place(taker, {
      symbol: "SOLUSDT",
      side: "buy",
      type: "market",
      time_in_force: "gtc",
      quote_amount: "6225",
    });
    expect(sweep).toMatchObject({ status: "filled", filledQty: "50.000000000000000000" });
    await waitFor(() => badges(takerEvents).includes(1));
    const mine = await inbox(taker);
    expect(mine.list.map((m) => m.kind)).toEqual(["spot.filled"]);
    expect(mine.list[0]?.body).toContain("50 SOL");
    // Each maker's ten orders each filled: ten messages each.
    for (const maker of makers) {
      expect((await inbox(maker)).list.filter((m) => m.kind === "spot.filled")).toHaveLength(10);
    }

    const resting = await createTrader(db, { ETH: "1" });
    await place(resting, limit("ETHUSDT", "sell", "3000", "1"));
    for (const quantity of ["0.4", "0.3", "0.3"]) {
      await place(await createTrader(db, { USDT: "3000" }), limit("ETHUSDT", "buy", "3000", quantity));
    }
    const got = await inbox(resting);
    expect(got.list.map((m) => m.kind)).toEqual(["spot.filled", "spot.partial"]);
    expect(got.list[1]?.body).toContain("0.4 ETH");
    expect(got.list[0]?.body).toContain("1 ETH");
  });
});

describe("c2c orders", () => {
  async function merchant(stock: string) {
    const m = await createMerchant(
      db,
      {
        name: `Desk ${randomBytes(2).toString("hex")}`,
        coin: "USDT",
        fiat: "CNY",
        price: "7",
        min_fiat: "10",
        max_fiat: "100000",
        payee_name: "Payee",
        bank_name: "Bank",
        bank_account: "1234 5678",
        bank_branch: "",
        note: "",
      },
      "op:test",
    );
    if (stock !== "0") {
      await moveMerchantStock(db, "fund", { merchant_id: m.id, amount: stock }, "op:test");
    }
    return m;
  }
  const buy = (m: { id: number }, user: User, amount: string) =>
    createC2cOrder(c2c(), user, { merchant_id: m.id, coin: "USDT", mode: "fiat", amount });

  it("tell the buyer when an order is matched, paid, completed, rejected and expired", async () => {
    const m = await merchant("1000");
    const user = await createC2cUser();
    const events = await listen(user.id);

    const order = await buy(m, user, "700");
    expect(order.status).toBe("matched");
    await submitC2cProof(c2c(), user, {
      order_id: order.id,
      proof_upload_id: await createProofUpload(user.id),
      note: "",
    });
    await confirmC2cOrder(c2c(), order.id, "op:test");
    const rejected = await buy(m, user, "70");
    await rejectC2cOrder(c2c(), rejected.id, "Payer name differs", "op:test");
    const late = await buy(m, user, "140");
    expect((await expireC2cOrder(db, late.id, new Date(late.expiresAt.getTime()))).state).toBe("expired");

    const got = await inbox(user);
    expect(got.list.map((x) => x.kind)).toEqual([
      "c2c.expired",
      "c2c.matched",
      "c2c.rejected",
      "c2c.matched",
      "c2c.completed",
      "c2c.paid",
      "c2c.matched",
    ]);
    const matched = got.list.at(-1)?.body ?? "";
    expect(matched).toContain(`${order.id}`);
    expect(matched).toContain("100 USDT");
    expect(matched).toContain("700 CNY");
    expect(matched).toContain(order.expiresAt.toISOString().slice(0, 16).replace("T", " "));
    expect(got.list[2]?.body).toContain("Payer name differs");
    await waitFor(() => badges(events).includes(7));
    expect((await inbox(await createC2cUser())).total).toBe(0);
  });

  it("an order left waiting for stock is not told it matched", async () => {
    const m = await merchant("0");
    const user = await createC2cUser();
    const order = await buy(m, user, "70");
    expect(order.status).toBe("unmatched");
    expect((await inbox(user)).total).toBe(0);
    await rejectC2cOrder(c2c(), order.id, "No stock", "op:test");
    expect((await inbox(user)).list.map((x) => x.kind)).toEqual(["c2c.rejected"]);
  });
});

describe("amounts in messages", () => {
  it("are shown at the currency's decimals, grouped, in the reader's language", async () => {
    const user = await createC2cUser(false);
    await db.transaction(async (tx) => {
      await addMessages(tx, [
        {
          userId: user.id,
          kind: "deposit.confirmed",
          params: { amount: "1000.000000000000000000", currency: "USDT" },
          eventKey: "test:amount:1",
        },
        {
          userId: user.id,
          kind: "deposit.confirmed",
          params: { amount: "0.123456789012345678", currency: "BTC" },
          eventKey: "test:amount:2",
        },
      ]);
    });
    const en = await inbox(user);
    expect(en.list[1]?.body).toContain("1,000 USDT");
    // BTC holds 8 decimals: the ninth is cut, never rounded up into money the wallet does not hold.
    expect(en.list[0]?.body).toContain("0.12345678 BTC");
    expect(en.list.map((m) => m.body).join(" ")).not.toMatch(/\.0{3,}/);
    expect((await inbox(user, "xby")).list[1]?.body).toContain("1000 USDT");
  });
});

describe("the live badge", () => {
  it("is not announced for a message whose transaction or savepoint rolled back", async () => {
    const user = await createC2cUser(false);
    const events = await listen(user.id);
    const message = (n: number) => ({
      userId: user.id,
      kind: "deposit.confirmed" as const,
      params: { amount: String(n), currency: "USDT" },
      eventKey: `test:${n}`,
    });
    await expect(
      db.transaction(async (tx) => {
        await addMessage(tx, message(1));
        throw new Error("undo");
      }),
    ).rejects.toThrow("undo");
    await db.transaction(async (tx) => {
      await tx
        .transaction(async (sp) => {
          await addMessage(sp, message(2));
          throw new Error("undo the savepoint");
        })
        .catch(() => {});
    });
    await messageBadgesSettled(db);
    expect((await inbox(user)).total).toBe(0);

    // A committed message is announced; nothing came before it.
    await addMessage(db, message(3));
    await waitFor(() => events.length > 0);
    await messageBadgesSettled(db);
    expect(badges(events)).toEqual([1]);
  });

  it("counts up to the cap (the bell shows 99+), while the inbox keeps the exact count", async () => {
    const user = await createC2cUser(false);
    const events = await listen(user.id);
    const many = (from: number, n: number) =>
      Array.from({ length: n }, (_, i) => ({
        userId: user.id,
        kind: "deposit.confirmed" as const,
        params: { amount: "1", currency: "USDT" },
        eventKey: `cap:${from + i}`,
      }));
    await addMessages(db, many(0, UNREAD_BADGE_CAP - 1));
    await messageBadgesSettled(db);
    await waitFor(() => badges(events).at(-1) === UNREAD_BADGE_CAP - 1);
    await addMessages(db, many(UNREAD_BADGE_CAP, 51));
    await messageBadgesSettled(db);
    await waitFor(() => badges(events).length >= 2);
    expect(badges(events).at(-1)).toBe(UNREAD_BADGE_CAP);
    expect(await countUnread(db, user.id)).toBe(UNREAD_BADGE_CAP + 50);
  });

  it("numbers a user's events from several publishers without a gap, even at once", async () => {
    const user = await createC2cUser(false);
    const events = await listen(user.id);
    const others = [new Redis(testRedisUrl()), new Redis(testRedisUrl())];
    try {
      await Promise.all([
        ...Array.from({ length: 40 }, (_, i) =>
          publishUserEvent(others[i % 2] as Redis, prefix, user.id, { type: "balance" }),
        ),
        ...Array.from({ length: 10 }, (_, i) =>
          addMessage(db, {
            userId: user.id,
            kind: "deposit.confirmed",
            params: { amount: "1", currency: "USDT" },
            eventKey: `burst:${i}`,
          }),
        ),
      ]);
      await messageBadgesSettled(db);
      await waitFor(() => events.length >= 41 && badges(events).at(-1) === 10);
      const seqs = events.map((e) => e.seq);
      expect(seqs).toEqual(seqs.map((_, i) => (seqs[0] as number) + i));
    } finally {
      for (const r of others) {
        r.disconnect();
      }
    }
  });
});
