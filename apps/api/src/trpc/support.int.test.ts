import { once } from "node:events";
import type { AddressInfo } from "node:net";
import { setPolicy } from "@northstar/domain/policy";
import { translate } from "@northstar/shared/i18n";
import { MAIN_TYPE } from "@northstar/shared/markets";
import type { FastifyInstance } from "fastify";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { WebSocket } from "ws";
import { buildApp } from "../app.ts";
import { errorText, expectTrpcRefusal, fieldInvalidText } from "../test/fixtures.ts";
import { createHarness, type Harness } from "../test/harness.ts";
import { admin, dataOf, operatorToken, uploadProof } from "../test/money.ts";

/**
 * Customer service across two API instances sharing one database and Redis: a line written through
 * one instance reaches sockets connected to the other, on the user's `user` channel and on the
 * operators' `support` channel. History stays in PostgreSQL; each side has its unread count.
 */
let h: Harness;
let second: FastifyInstance;
let secondRedis: Redis;
let urlA: string;
let urlB: string;
let support: string;
const sockets: WebSocket[] = [];

beforeAll(async () => {
  h = await createHarness();
  await h.app.listen({ port: 0, host: "127.0.0.1" });
  // A second API instance: its own process state and Redis connection, the same database and prefix.
  secondRedis = new Redis(process.env.REDIS_URL ?? "redis://127.0.0.1:6379", { maxRetriesPerRequest: null });
  second = await buildApp({ ...h.deps, redis: secondRedis });
  await second.listen({ port: 0, host: "127.0.0.1" });
  urlA = `ws://127.0.0.1:${(h.app.server.address() as AddressInfo).port}/ws`;
  urlB = `ws://127.0.0.1:${(second.server.address() as AddressInfo).port}/ws`;
  support = await operatorToken(h, "support");
});
afterAll(async () => {
  for (const ws of sockets) {
    ws.terminate();
  }
  await second?.close();
  secondRedis?.disconnect();
  await h?.close();
});

/** A raw socket subscribed to `ch` with `token`; collects every frame it receives. */
async function listen(url: string, ch: string, token: string) {
  const ws = new WebSocket(url);
  sockets.push(ws);
  await once(ws, "open");
  const frames: Record<string, unknown>[] = [];
  ws.on("message", (raw) => frames.push(JSON.parse(String(raw))));
  ws.send(JSON.stringify({ main_type: MAIN_TYPE.subscribe, sub: [ch], token }));
  await until(() =>
    frames.some((f) => f.main_type === MAIN_TYPE.snapshot || f.main_type === MAIN_TYPE.error),
  );
  return frames;
}

/** Waits for a state the socket brings (vitest's own polling, 25 ms apart, 5 s at most). */
const until = (check: () => boolean) => vi.waitUntil(check, { timeout: 5000, interval: 25 });

type Line = { id: number; conversation_id: number; author: string; body: string; upload_id: string | null };
const supportLines = (frames: Record<string, unknown>[]) =>
  frames
    .filter((f) => f.main_type === MAIN_TYPE.update)
    .map((f) => (f.data as { type?: string; line?: Line }) ?? {})
    .filter((d) => d.type === "support")
    .map((d) => d.line as Line);

/** Calls a tRPC mutation on the second instance. */
async function onSecond(path: string, input: unknown, headers: Record<string, string>) {
  const res = await second.inject({
    method: "POST",
    url: `/trpc/${path}`,
    payload: JSON.stringify(input),
    headers: { ...headers, "content-type": "application/json" },
  });
  return { status: res.statusCode, body: res.json() };
}

describe("customer service", () => {
  it("delivers lines across two API instances both ways, keeps history and both unread counts", async () => {
    const u = await h.registerByEmail();
    // The operator console listens on instance A, the user on instance B.
    const console = await listen(urlA, "support", support);
    const userSocket = await listen(urlB, "user", u.token);

    // The user writes through instance B: the console on instance A hears it.
    const sent = dataOf<Line>(
      await onSecond(
        "support.send",
        { body: "Where is my deposit?" },
        {
          authorization: `Bearer ${u.token}`,
        },
      ),
    );
    await until(() => supportLines(console).some((l) => l.id === sent.id));
    expect(supportLines(console).find((l) => l.id === sent.id)).toMatchObject({
      author: "user",
      body: "Where is my deposit?",
    });

    const conversations = dataOf<{ id: number; unread: number; uid: string }[]>(
      await admin(h, "support.conversations", undefined, support, "query"),
    );
    expect(conversations[0]).toMatchObject({ id: sent.conversation_id, unread: 1 });

    // The operator replies through instance A: the user's socket on instance B hears it.
    const reply = dataOf<Line>(
      await admin(
        h,
        "support.reply",
        { conversation_id: sent.conversation_id, body: "It is on its way." },
        support,
      ),
    );
    await until(() => supportLines(userSocket).some((l) => l.id === reply.id));
    expect(supportLines(userSocket).find((l) => l.id === reply.id)).toMatchObject({
      author: "operator",
      body: "It is on its way.",
    });

    const history = dataOf<{ unread: number; lines: Line[] }>(
      await h.trpc("support.history", { limit: 50 }, u.token, "query"),
    );
    expect(history.unread).toBe(1);
    expect(history.lines.map((l) => [l.author, l.body])).toEqual([
      ["user", "Where is my deposit?"],
      ["operator", "It is on its way."],
    ]);
    dataOf(await h.trpc("support.read", undefined, u.token));
    expect(
      dataOf<{ unread: number }>(await h.trpc("support.history", { limit: 50 }, u.token, "query")).unread,
    ).toBe(0);
    dataOf(await admin(h, "support.read", { conversation_id: sent.conversation_id }, support));
    expect(
      dataOf<{ id: number; unread: number }[]>(
        await admin(h, "support.conversations", undefined, support, "query"),
      ).find((c) => c.id === sent.conversation_id)?.unread,
    ).toBe(0);
  });

  it("lists conversations newest activity first and keeps each user to their own", async () => {
    const a = await h.registerByEmail();
    const b = await h.registerByEmail();
    const la = dataOf<Line>(await h.trpc("support.send", { body: "first" }, a.token));
    const lb = dataOf<Line>(await h.trpc("support.send", { body: "second" }, b.token));
    let list = dataOf<{ id: number }[]>(await admin(h, "support.conversations", undefined, support, "query"));
    expect(list.slice(0, 2).map((c) => c.id)).toEqual([lb.conversation_id, la.conversation_id]);
    dataOf(await h.trpc("support.send", { body: "again" }, a.token));
    list = dataOf<{ id: number }[]>(await admin(h, "support.conversations", undefined, support, "query"));
    expect(list.slice(0, 2).map((c) => c.id)).toEqual([la.conversation_id, lb.conversation_id]);

    const bHistory = dataOf<{ lines: Line[] }>(
      await h.trpc("support.history", { limit: 50 }, b.token, "query"),
    );
    expect(bHistory.lines.map((l) => l.body)).toEqual(["second"]);
  });

  it("takes the user's own image and refuses someone else's, an empty line, and strangers", async () => {
    const u = await h.registerByEmail();
    const other = await h.registerByEmail();
    const mine = await uploadProof(h, u.token);
    const theirs = await uploadProof(h, other.token);
    const line = dataOf<Line>(await h.trpc("support.send", { upload_id: mine }, u.token));
    expect(line).toMatchObject({ author: "user", body: "", upload_id: mine });
    // The support operator can open the attachment.
    const file = await h.app.inject({
      method: "GET",
      url: `/uploads/${mine}`,
      headers: { "x-operator-token": support },
    });
    expect(file.statusCode).toBe(200);

    expectTrpcRefusal(await h.trpc("support.send", { upload_id: theirs }, u.token), "UPLOAD_MISSING");
    expectTrpcRefusal(await h.trpc("support.send", { body: "   " }, u.token), "FIELD_REQUIRED", {
      message: errorText("FIELD_REQUIRED", "en", { field: translate("en", "fields.body") }),
    });
    expectTrpcRefusal(await h.trpc("support.send", { body: "x".repeat(2001) }, u.token), "FIELD_INVALID", {
      message: fieldInvalidText("body"),
    });
    expect(
      dataOf<{ lines: Line[] }>(await h.trpc("support.history", { limit: 50 }, u.token, "query")).lines,
    ).toHaveLength(1);

    // Not a support operator: no console, no replies, no channel.
    const finance = await operatorToken(h, "finance");
    expectTrpcRefusal(await admin(h, "support.conversations", undefined, finance, "query"), "FORBIDDEN");
    expectTrpcRefusal(
      await admin(h, "support.reply", { conversation_id: line.conversation_id, body: "hi" }, finance),
      "FORBIDDEN",
    );
    const refused = await listen(urlA, "support", finance);
    expect(refused.find((f) => f.main_type === MAIN_TYPE.error)).toMatchObject({ code: "FORBIDDEN" });
    const anonymous = await listen(urlA, "support", u.token);
    expect(anonymous.find((f) => f.main_type === MAIN_TYPE.error)).toMatchObject({ code: "LOGIN_REQUIRED" });
    expectTrpcRefusal(
      await admin(h, "support.reply", { conversation_id: 999999, body: "hi" }, support),
      "NOT_FOUND",
    );
  });

  it("refuses a user writing faster than policy allows, in their language, and lets other users write", async () => {
    await setPolicy(h.db, "support.userLinesPerMinute", 2, "op:test");
    try {
      const u = await h.registerByEmail();
      dataOf(await h.trpc("support.send", { body: "one" }, u.token));
      dataOf(await h.trpc("support.send", { body: "two" }, u.token));
      expectTrpcRefusal(await h.trpc("support.send", { body: "three" }, u.token), "SUPPORT_TOO_FAST", {
        params: { count: 2 },
      });
      const jp = await h.app.inject({
        method: "POST",
        url: "/trpc/support.send",
        payload: JSON.stringify({ body: "three" }),
        headers: { authorization: `Bearer ${u.token}`, lang: "jp", "content-type": "application/json" },
      });
      expect(jp.json().error.message).toBe(errorText("SUPPORT_TOO_FAST", "jp", { count: 2 }));
      const other = await h.registerByEmail();
      dataOf(await h.trpc("support.send", { body: "hello" }, other.token));
      expect(
        dataOf<{ lines: Line[] }>(await h.trpc("support.history", { limit: 50 }, u.token, "query")).lines,
      ).toHaveLength(2);
    } finally {
      await setPolicy(h.db, "support.userLinesPerMinute", 20, "op:test");
    }
  });
});
