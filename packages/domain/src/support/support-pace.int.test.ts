import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type Db } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { type User, users } from "../identity/index.ts";
import { getPolicy, setPolicy } from "../policy/index.ts";
import { seedDatabase } from "../setup/index.ts";
import { createTestDatabase } from "../test-support/index.ts";
import { sendOperatorLine, sendUserLine, supportConversations, userSupportHistory } from "./index.ts";

/**
 * The chat's pace: a user sends at most `support.userLinesPerMinute` lines a minute, an operator at
 * most `support.operatorLinesPerMinute` replies, however many sends arrive at once. Time is a test
 * clock passed in.
 */
let db: Db;
let teardown: () => Promise<void>;
const t0 = new Date(Date.UTC(2026, 5, 1, 8, 0, 0));
const later = (ms: number) => new Date(t0.getTime() + ms);

beforeAll(async () => {
  const database = await createTestDatabase();
  const conn = createDb(database.url, { max: 20 });
  conn.pool.on("error", () => {});
  db = conn.db;
  await seedDatabase(db);
  teardown = async () => {
    await conn.close();
    await database.drop();
  };
});
afterAll(async () => {
  await teardown?.();
});

async function createUser(): Promise<User> {
  const uid = randomBytes(6).toString("hex");
  const [user] = await db
    .insert(users)
    .values({ uid, passwordHash: "x", nationality: "GB", inviteCode: `S${uid}`, nickname: `S${uid}` })
    .returning();
  if (!user) {
    throw new Error("insert failed");
  }
  return user;
}

const outcome = (p: Promise<unknown>) =>
  p.then(
    () => "sent",
    (e: unknown) => (e instanceof AppError ? `${e.code}:${JSON.stringify(e.params)}` : String(e)),
  );

describe("support pace", () => {
  it("lets exactly the per-minute limit of 50 simultaneous lines through, refuses the rest, and allows more a minute later", async () => {
    const limit = await getPolicy(db, "support.userLinesPerMinute");
    expect(limit).toBe(20);
    const user = await createUser();
    const other = await createUser();
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => outcome(sendUserLine(db, user.id, { body: `line ${i}` }, t0))),
    );
    expect(results.filter((r) => r === "sent")).toHaveLength(limit);
    expect(new Set(results.filter((r) => r !== "sent"))).toEqual(
      new Set([`SUPPORT_TOO_FAST:${JSON.stringify({ count: limit })}`]),
    );
    const history = await userSupportHistory(db, user.id, { limit: 100 });
    expect(history.lines).toHaveLength(limit);

    // Another user is not slowed by this one.
    expect(await outcome(sendUserLine(db, other.id, { body: "hello" }, t0))).toBe("sent");
    // Still within the minute: refused; once the minute has passed since those lines: accepted.
    expect(await outcome(sendUserLine(db, user.id, { body: "again" }, later(59_000)))).not.toBe("sent");
    expect(await outcome(sendUserLine(db, user.id, { body: "again" }, later(60_001)))).toBe("sent");
    expect((await userSupportHistory(db, user.id, { limit: 100 })).lines).toHaveLength(limit + 1);
  });

  it("holds one operator to their own pace across conversations, as policy sets it", async () => {
    await setPolicy(db, "support.operatorLinesPerMinute", 5, "op:test");
    const people = await Promise.all(Array.from({ length: 3 }, () => createUser()));
    const conversations: number[] = [];
    for (const person of people) {
      await sendUserLine(db, person.id, { body: "help" }, t0);
      const [row] = await db
        .select({ id: supportConversations.id })
        .from(supportConversations)
        .where(eq(supportConversations.userId, person.id));
      conversations.push(row?.id as number);
    }
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        outcome(
          sendOperatorLine(db, 7, { conversation_id: conversations[i % 3] as number, body: `re ${i}` }, t0),
        ),
      ),
    );
    expect(results.filter((r) => r === "sent")).toHaveLength(5);
    // Another operator answers freely.
    expect(
      await outcome(sendOperatorLine(db, 8, { conversation_id: conversations[0] as number, body: "hi" }, t0)),
    ).toBe("sent");
  });
});
