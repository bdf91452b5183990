import type { AddressInfo } from "node:net";
import { addMessage } from "@northstar/domain/messages";
import { translate } from "@northstar/shared/i18n";
import { type ChannelEvent, channel, MarketSocket, type SocketLike } from "@northstar/shared/markets";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { WebSocket } from "ws";
import { expectTrpcRefusal, fieldInvalidText, query } from "../test/fixtures.ts";
import { createHarness, type Harness } from "../test/harness.ts";
import {
  ADDR,
  admin,
  dataOf,
  operatorToken,
  setDepositAddress,
  submitDeposit,
  uploadProof,
  userIdOf,
} from "../test/money.ts";

/**
 * Messages: created inside the transaction of the event that causes them, rendered in the reader's
 * language, visible to their owner only, and announced live on the owner's socket.
 */
let h: Harness;
let finance: string;
let compliance: string;
let url: string;
const sockets: MarketSocket[] = [];

beforeAll(async () => {
  h = await createHarness();
  finance = await operatorToken(h, "finance");
  compliance = await operatorToken(h, "compliance");
  await setDepositAddress(h, finance, "USDT", "ERC20", ADDR.ERC20);
  await h.app.listen({ port: 0, host: "127.0.0.1" });
  url = `ws://127.0.0.1:${(h.app.server.address() as AddressInfo).port}/ws`;
});
afterAll(async () => {
  for (const s of sockets) {
    s.close();
  }
  await h?.close();
});

type View = { id: number; kind: string; title: string; body: string; read: boolean };
type List = { total: number; unread: number; list: View[] };

async function list(token: string, lang = "en"): Promise<List> {
  const res = await h.app.inject({
    method: "GET",
    url: `/trpc/messages.list?input=${encodeURIComponent(JSON.stringify({ page: 1, page_size: 20 }))}`,
    headers: { authorization: `Bearer ${token}`, lang },
  });
  expect(res.statusCode).toBe(200);
  return (res.json() as { result: { data: List } }).result.data;
}
const unread = async (token: string) =>
  dataOf<{ unread: number }>(await h.trpc("messages.unread", undefined, token, "query")).unread;

async function confirmedDeposit(token: string, amount: string) {
  const { id } = dataOf<{ id: number }>(await submitDeposit(h, token, { amount }));
  dataOf(await admin(h, "confirmDeposit", { id }, finance));
  return id;
}

/** The unread counts the user's `user` socket channel announces. */
function watchBadge(token: string) {
  const counts: number[] = [];
  const socket = new MarketSocket({
    url,
    connect: (address) => new WebSocket(address) as unknown as SocketLike,
    token: () => token,
  });
  sockets.push(socket);
  let subscribed = false;
  socket.subscribe<{ type?: string; unread?: number } | null>(
    channel.user(),
    (event: ChannelEvent<unknown>) => {
      const data = event.data as { type?: string; unread?: number } | null;
      if (event.snapshot) {
        subscribed = true;
      } else if (data?.type === "messages" && typeof data.unread === "number") {
        counts.push(data.unread);
      }
    },
  );
  return {
    counts,
    async ready() {
      await until(() => subscribed);
    },
  };
}

/** Waits for a state the socket brings (vitest's own polling, 25 ms apart, 5 s at most). */
const until = (check: () => boolean) => vi.waitUntil(check, { timeout: 5000, interval: 25 });

describe("messages", () => {
  it("a confirmed deposit leaves one message, rendered in the reader's language, and the badge hears it live", async () => {
    const u = await h.registerByEmail();
    const badge = watchBadge(u.token);
    await badge.ready();
    expect(await unread(u.token)).toBe(0);

    const depositId = await confirmedDeposit(u.token, "250.5");
    await until(() => badge.counts.includes(1));

    const en = await list(u.token, "en");
    expect(en.unread).toBe(1);
    expect(en.list).toHaveLength(1);
    expect(en.list[0]).toMatchObject({
      kind: "deposit.confirmed",
      read: false,
      title: translate("en", "messages.kind.deposit.confirmed.title"),
    });
    expect(en.list[0]?.body).toContain("250.5");
    expect(en.list[0]?.body).toContain("USDT");
    const zh = await list(u.token, "zh");
    expect(zh.list[0]?.title).toBe(translate("zh", "messages.kind.deposit.confirmed.title"));
    expect(zh.list[0]?.title).not.toBe(en.list[0]?.title);

    // The same event again (a retried confirm) adds nothing.
    expectTrpcRefusal(await admin(h, "confirmDeposit", { id: depositId }, finance), "ALREADY_REVIEWED");
    const userId = await userIdOf(h, u.token);
    await addMessage(h.db, {
      userId,
      kind: "deposit.confirmed",
      params: { amount: "250.5", currency: "USDT" },
      eventKey: `deposit:${depositId}:confirmed`,
    });
    expect((await list(u.token)).total).toBe(1);

    // Reading it: the count drops, live too, and reading again changes nothing.
    const id = en.list[0]?.id as number;
    expect(dataOf<{ unread: number }>(await h.trpc("messages.read", { id }, u.token))).toEqual({ unread: 0 });
    await until(() => badge.counts.at(-1) === 0);
    expect(dataOf<{ unread: number }>(await h.trpc("messages.read", { id }, u.token))).toEqual({ unread: 0 });
    expect((await list(u.token)).list[0]?.read).toBe(true);
  });

  it("only the owner sees or marks a message: another user's id reaches nothing", async () => {
    const owner = await h.registerByEmail();
    const other = await h.registerByEmail();
    await confirmedDeposit(owner.token, "10");
    const [message] = (await list(owner.token)).list;
    expect(message).toBeDefined();

    expect(await list(other.token)).toEqual({ total: 0, unread: 0, list: [] });
    expect(await unread(other.token)).toBe(0);
    expectTrpcRefusal(await h.trpc("messages.read", { id: message?.id }, other.token), "NOT_FOUND");
    expect(dataOf<{ marked: number }>(await h.trpc("messages.readAll", undefined, other.token))).toEqual({
      marked: 0,
    });
    expect((await list(owner.token)).list[0]?.read).toBe(false);
    expect(await unread(owner.token)).toBe(1);

    expectTrpcRefusal(await h.trpc("messages.list", { page: 1 }, undefined, "query"), "LOGIN_REQUIRED", {
      responseCode: 2000,
    });
    expectTrpcRefusal(await h.trpc("messages.read", { id: "abc" }, owner.token), "FIELD_INVALID", {
      message: fieldInvalidText("id"),
    });
  });

  it("a KYC rejection leaves a message with its level and reason in the reader's language; mark all read clears every one", async () => {
    const u = await h.registerByEmail();
    const photo = () => uploadProof(h, u.token);
    const applied = dataOf<{ id: number }>(
      await h.trpc(
        "kyc.applyPrimary",
        {
          document_type: 2,
          real_name: "Grace Hopper",
          document_number: "P1234567",
          front_upload_id: await photo(),
          back_upload_id: await photo(),
          handheld_upload_id: await photo(),
        },
        u.token,
      ),
    );
    dataOf(await admin(h, "kyc.reject", { id: applied.id, reason: "documentExpired" }, compliance));
    await confirmedDeposit(u.token, "5");

    const ty = await list(u.token, "ty");
    expect(ty.unread).toBe(2);
    // Newest first.
    expect(ty.list.map((m) => m.kind)).toEqual(["deposit.confirmed", "kyc.rejected"]);
    const kyc = ty.list[1] as View;
    expect(kyc.title).toBe(translate("ty", "messages.kind.kyc.rejected.title"));
    expect(kyc.body).toContain(translate("ty", "kyc.reasons.documentExpired"));
    expect(kyc.body).toContain(translate("ty", "kyc.title.primary"));

    expect(dataOf<{ marked: number }>(await h.trpc("messages.readAll", undefined, u.token))).toEqual({
      marked: 2,
    });
    expect(await unread(u.token)).toBe(0);
    const rows = await query<{ n: number }>(
      h,
      "select count(*)::int as n from user_messages where user_id = $1 and read_at is null",
      [await userIdOf(h, u.token)],
    );
    expect(rows[0]?.n).toBe(0);
  });
});
