import { once } from "node:events";
import net, { type AddressInfo } from "node:net";
import { ChannelPublisher, pubsubChannel, snapshotKey, userChannel } from "@northstar/domain/markets";
import {
  type ChannelEvent,
  channel,
  MAIN_TYPE,
  MarketSocket,
  type SocketLike,
  type Ticker,
} from "@northstar/shared/markets";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { WebSocket } from "ws";
import { buildApp } from "../app.ts";
import { query } from "../test/fixtures.ts";
import { createHarness, type Harness } from "../test/harness.ts";

let h: Harness;
let url: string;
let publisher: ChannelPublisher;
const sockets: WebSocket[] = [];
const clients: MarketSocket[] = [];

/** A client whose underlying `ws` sockets the test can reach, to cut the connection. */
function client(
  options: {
    token?: string;
    onGap?: (ch: string) => void;
    schedule?: (run: () => void, ms: number) => () => void;
  } = {},
) {
  const opened: number[] = [];
  const socket = new MarketSocket({
    url,
    connect: (address) => {
      const ws = new WebSocket(address);
      sockets.push(ws);
      ws.on("open", () => opened.push(Date.now()));
      return ws as unknown as SocketLike;
    },
    token: () => options.token ?? null,
    ...(options.schedule ? { schedule: options.schedule } : {}),
    onGap: (ch) => options.onGap?.(ch),
  });
  clients.push(socket);
  return { socket, opened, current: () => sockets.at(-1) };
}

/**
 * Collects a channel's events; `until` waits for a state of them. Its deadline only bounds a failure:
 * the suite runs beside the browser tests on two cores, where a delivery can take seconds.
 */
function collect<T>(socket: MarketSocket, ch: string) {
  const events: ChannelEvent<T>[] = [];
  let waiter: (() => void) | null = null;
  socket.subscribe<T>(ch, (event) => {
    events.push(event);
    waiter?.();
  });
  return {
    events,
    async until(predicate: (events: ChannelEvent<T>[]) => boolean, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      while (!predicate(events)) {
        if (Date.now() > deadline) {
          throw new Error(`timed out on ${ch}: ${JSON.stringify(events.slice(-3))}`);
        }
        await new Promise<void>((resolve) => {
          waiter = resolve;
          setTimeout(resolve, 50);
        });
      }
    },
  };
}

const ticker = (s: string, p: string): Ticker => ({
  s,
  p,
  o: p,
  h: p,
  l: p,
  v: "0",
  q: "0",
  c: "0.00",
  t: Date.now(),
  x: true,
});

async function publish(ch: string, data: unknown, full: unknown = data, route?: string) {
  publisher.publish(ch, data, full, route ? { route } : {});
  await publisher.flush();
}

/** An API listening on its own port whose socket is served by `processes` child processes. */
async function listenWithSocketProcesses(processes: number) {
  // The children take their database from the environment they are started with.
  const databaseUrl = process.env.DATABASE_URL;
  process.env.DATABASE_URL = h.databaseUrl;
  const app = await buildApp({ ...h.deps, config: { ...h.deps.config, marketSocketProcesses: processes } });
  if (databaseUrl === undefined) {
    delete process.env.DATABASE_URL;
  } else {
    process.env.DATABASE_URL = databaseUrl;
  }
  await app.listen({ port: 0, host: "127.0.0.1" });
  return app;
}

beforeAll(async () => {
  h = await createHarness();
  await h.app.listen({ port: 0, host: "127.0.0.1" });
  url = `ws://127.0.0.1:${(h.app.server.address() as AddressInfo).port}/ws`;
  publisher = new ChannelPublisher(h.redis, h.redisPrefix);
  await publish("tickers", [ticker("BTCUSDT", "90000")]);
});

afterAll(async () => {
  for (const c of clients) {
    c.close();
  }
  await h.close();
});

describe("market socket", () => {
  it("answers heartbeats, with main_type and utime on every message", async () => {
    const ws = new WebSocket(url);
    await once(ws, "open");
    const replies: Record<string, unknown>[] = [];
    ws.on("message", (raw) => replies.push(JSON.parse(String(raw))));
    ws.send(JSON.stringify({ main_type: MAIN_TYPE.heartbeat, time: Math.floor(Date.now() / 1000) }));
    ws.send("not json");
    ws.send(JSON.stringify({ main_type: MAIN_TYPE.subscribe, sub: ["nonsense:channel"] }));
    ws.send(JSON.stringify({ main_type: MAIN_TYPE.subscribe, sub: ["user"] }));
    await vi.waitUntil(() => replies.length >= 4, { timeout: 3000, interval: 20 });
    ws.close();
    expect(replies).toHaveLength(4);
    for (const reply of replies) {
      expect(typeof reply.main_type).toBe("number");
      expect(Math.abs((reply.utime as number) - Date.now() / 1000)).toBeLessThan(5);
    }
    expect(replies[0]).toMatchObject({ main_type: MAIN_TYPE.heartbeat });
    expect(replies.slice(1).map((r) => r.code)).toEqual(["BAD_MESSAGE", "CHANNEL_UNKNOWN", "LOGIN_REQUIRED"]);
  });

  it("sends each client a snapshot, then only the updates of the channels it subscribed to, in order", async () => {
    const a = client();
    const b = client();
    const c = client();
    const aTickers = collect<Ticker[]>(a.socket, "tickers");
    const bKline = collect(b.socket, channel.kline("BTCUSDT", "1m"));
    const cTickers = collect<Ticker[]>(c.socket, "tickers");
    const cKline = collect(c.socket, channel.kline("BTCUSDT", "1m"));
    await aTickers.until((e) => e.length === 1);
    await bKline.until((e) => e.length === 1);
    await cTickers.until((e) => e.length === 1);
    await cKline.until((e) => e.length === 1);
    expect(aTickers.events[0]).toMatchObject({ snapshot: true, data: [{ s: "BTCUSDT", p: "90000" }] });
    // Nothing published on the kline channel yet: an empty snapshot at seq 0.
    expect(bKline.events[0]).toMatchObject({ snapshot: true, seq: 0, data: null });

    for (let i = 1; i <= 5; i++) {
      await publish("tickers", [ticker("BTCUSDT", `${90000 + i}`)]);
      await publish(channel.kline("BTCUSDT", "1m"), {
        time: 0,
        open: "1",
        high: "1",
        low: "1",
        close: `${i}`,
        volume: "0",
      });
    }
    await aTickers.until((e) => e.length === 6);
    await bKline.until((e) => e.length === 6);
    await cKline.until((e) => e.length === 6);
    await cTickers.until((e) => e.length === 6);
    expect(aTickers.events.slice(1).map((e) => (e.data as Ticker[])[0]?.p)).toEqual([
      "90001",
      "90002",
      "90003",
      "90004",
      "90005",
    ]);
    const seqs = aTickers.events.map((e) => e.seq);
    expect(seqs.slice(1)).toEqual(seqs.slice(1).map((_, i) => (seqs[0] as number) + i + 1));
    expect(bKline.events.slice(1).map((e) => (e.data as { close: string }).close)).toEqual([
      "1",
      "2",
      "3",
      "4",
      "5",
    ]);
    // a subscribed only to tickers, b only to the kline: neither got the other's messages.
    expect(aTickers.events.every((e) => e.ch === "tickers")).toBe(true);
    expect(bKline.events.every((e) => e.ch === "kline:BTCUSDT:1m")).toBe(true);
  });

  it("frames updates of every size intact (7-, 16- and 64-bit payload lengths)", async () => {
    const { socket } = client();
    const depth = collect<{ bids: [string, string][] }>(socket, channel.depth("BIGUSDT"));
    await depth.until((e) => e.length === 1);
    const sizes = [1, 2000, 9000];
    for (const levels of sizes) {
      const bids = Array.from({ length: levels }, (_, i): [string, string] => [`${100000 - i}.5`, `${i}.25`]);
      await publish(channel.depth("BIGUSDT"), { bids, asks: [] });
    }
    await depth.until((e) => e.length === 1 + sizes.length);
    expect(depth.events.slice(1).map((e) => e.data.bids.length)).toEqual(sizes);
    expect(depth.events.at(-1)?.data.bids.at(-1)).toEqual([`${100000 - 8999}.5`, "8999.25"]);
  });

  it("resubscribes for a fresh snapshot when an update arrives out of sequence", async () => {
    const gaps: string[] = [];
    const { socket } = client({ onGap: (ch) => gaps.push(ch) });
    const depth = collect(socket, channel.depth("ETHUSDT"));
    await depth.until((e) => e.length === 1);
    await publish(channel.depth("ETHUSDT"), { bids: [["3000", "1"]], asks: [] });
    await depth.until((e) => e.length === 2);
    const last = depth.events[1]?.seq as number;
    // Force a gap: an update five ahead, as if four were lost between Redis and this server.
    const full = { bids: [["2999", "2"]], asks: [["3001", "1"]] };
    await h.redis.set(
      snapshotKey(h.redisPrefix, channel.depth("ETHUSDT")),
      JSON.stringify({ ch: "depth:ETHUSDT", seq: last + 5, ts: Date.now(), data: full }),
    );
    await h.redis.publish(
      pubsubChannel(h.redisPrefix, channel.depth("ETHUSDT")),
      JSON.stringify({ ch: "depth:ETHUSDT", seq: last + 5, ts: Date.now(), data: full }),
    );
    await depth.until((e) => e.some((x) => x.snapshot && x.seq === last + 5));
    expect(gaps).toEqual(["depth:ETHUSDT"]);
    const fresh = depth.events.at(-1);
    expect(fresh).toMatchObject({ snapshot: true, seq: last + 5, data: full });
    // The out-of-sequence update itself was not delivered as an update.
    expect(depth.events.filter((e) => !e.snapshot).map((e) => e.seq)).toEqual([last]);
  });

  it("follows a new publisher after a restart or a takeover: its sequences start above the old one's", async () => {
    const gaps: string[] = [];
    const { socket } = client({ onGap: (ch) => gaps.push(ch) });
    const ch = channel.depth("SOLUSDT");
    const depth = collect(socket, ch);
    const best = (event: ChannelEvent<unknown> | undefined) =>
      (event?.data as { bids?: string[][] } | null | undefined)?.bids?.[0]?.[0];
    await depth.until((e) => e.length === 1);
    // The old publisher had published many updates before this client came.
    for (let i = 0; i < 20; i++) {
      publisher.publish(ch, { bids: [[String(100 + i), "1"]], asks: [] });
    }
    await publisher.flush();
    await depth.until((e) => e.some((x) => best(x) === "119"));
    // A standby worker takes the role over in a later millisecond: a publisher of its own.
    const started = Date.now();
    while (Date.now() === started) {
      await new Promise((r) => setTimeout(r, 1));
    }
    const successor = new ChannelPublisher(h.redis, h.redisPrefix);
    successor.publish(ch, { bids: [["200", "1"]], asks: [] });
    await successor.flush();
    // Its first update is a gap for the client, which takes a fresh snapshot: the screen moves on
    // instead of ignoring updates numbered below those it already has.
    await depth.until((e) => best(e.at(-1)) === "200");
    expect(gaps).toEqual([ch]);
    expect(depth.events.at(-1)).toMatchObject({ snapshot: true });
    successor.publish(ch, { bids: [["201", "1"]], asks: [] });
    await successor.flush();
    await depth.until((e) => best(e.at(-1)) === "201");
    expect(depth.events.at(-1)).toMatchObject({ snapshot: false });
  });

  it("reconnects a second after the connection drops, and resumes from a fresh snapshot", async () => {
    // The client's reconnect timer runs on the test's clock: the test sees the delay asked for and
    // decides when that second has passed.
    const timers: { ms: number; run: () => void }[] = [];
    const probe = client({
      schedule: (run, ms) => {
        timers.push({ ms, run });
        return () => {};
      },
    });
    const tickers = collect<Ticker[]>(probe.socket, "tickers");
    await tickers.until((e) => e.length === 1);
    // Cut the TCP connection under the client, as a network failure would.
    (probe.current() as unknown as { _socket: { destroy(): void } })._socket.destroy();
    await vi.waitFor(() => expect(timers.map((t) => t.ms)).toEqual([1000]), { interval: 20 });
    // Nothing reconnects before the second is up.
    expect(probe.opened).toHaveLength(1);
    timers[0]?.run();
    await tickers.until((e) => e.filter((x) => x.snapshot).length === 2, 5000);
    expect(probe.opened).toHaveLength(2);
    await publish("tickers", [ticker("BTCUSDT", "91234")]);
    await tickers.until((e) => e.some((x) => !x.snapshot && (x.data as Ticker[])[0]?.p === "91234"));
  });

  it("delivers a user's own events only to that user's sockets", async () => {
    const alice = await h.registerByEmail();
    const bob = await h.registerByEmail();
    const aliceSocket = client({ token: alice.token });
    const bobSocket = client({ token: bob.token });
    const aliceEvents = collect(aliceSocket.socket, "user");
    const bobEvents = collect(bobSocket.socket, "user");
    await aliceEvents.until((e) => e.length === 1);
    await bobEvents.until((e) => e.length === 1);
    const [row] = await query<{ id: number }>(h, "select id::int as id from users where email = $1", [
      alice.email,
    ]);
    await publish("user", { kind: "order", id: 1 }, null, userChannel(row?.id as number));
    await aliceEvents.until((e) => e.length === 2);
    expect(aliceEvents.events[1]).toMatchObject({
      ch: "user",
      snapshot: false,
      data: { kind: "order", id: 1 },
    });
    // Redis delivers one connection's messages in the order they were published: once a later event
    // for Bob has arrived, Alice's would have reached him before it.
    const [bobRow] = await query<{ id: number }>(h, "select id::int as id from users where email = $1", [
      bob.email,
    ]);
    await publish("user", { kind: "order", id: 2 }, null, userChannel(bobRow?.id as number));
    await bobEvents.until((e) => e.length >= 2);
    expect(bobEvents.events.slice(1).map((e) => e.data)).toEqual([{ kind: "order", id: 2 }]);
  });

  it("fans out through Redis: a second API instance serves the same updates", async () => {
    const second = await buildApp({ ...h.deps, config: { ...h.deps.config } });
    await second.listen({ port: 0, host: "127.0.0.1" });
    const secondUrl = `ws://127.0.0.1:${(second.server.address() as AddressInfo).port}/ws`;
    try {
      const one = client();
      const two = new MarketSocket({
        url: secondUrl,
        connect: (u) => new WebSocket(u) as unknown as SocketLike,
      });
      clients.push(two);
      const oneTrades = collect(one.socket, channel.trades("SOLUSDT"));
      const twoTrades = collect(two, channel.trades("SOLUSDT"));
      await oneTrades.until((e) => e.length === 1);
      await twoTrades.until((e) => e.length === 1);
      // A snapshot is sent only once the instance's Redis subscription is in place.
      const [, subscribed] = (await h.redis.pubsub(
        "NUMSUB",
        pubsubChannel(h.redisPrefix, channel.trades("SOLUSDT")),
      )) as [string, number];
      expect(subscribed).toBe(2);
      await publish(channel.trades("SOLUSDT"), [{ id: "t1", p: "140", q: "2", side: "buy", t: Date.now() }]);
      await oneTrades.until((e) => e.length === 2);
      await twoTrades.until((e) => e.length === 2);
      expect(twoTrades.events[1]).toEqual(oneTrades.events[1]);
    } finally {
      await second.close();
    }
  });

  it("sends big updates compressed once to clients that negotiated permessage-deflate, plain to the rest", async () => {
    const plain = new WebSocket(url, { perMessageDeflate: false });
    const deflating = new WebSocket(url);
    sockets.push(plain, deflating);
    await Promise.all([once(plain, "open"), once(deflating, "open")]);
    expect(deflating.extensions).toContain("permessage-deflate");
    expect(plain.extensions).toBe("");
    const received = (ws: WebSocket) => {
      const messages: { main_type: number; seq?: number; data?: { bids: [string, string][] } }[] = [];
      ws.on("message", (raw) => messages.push(JSON.parse(String(raw))));
      return messages;
    };
    const plainMessages = received(plain);
    const deflatingMessages = received(deflating);
    const ch = channel.depth("ZIPUSDT");
    for (const ws of [plain, deflating]) {
      ws.send(JSON.stringify({ main_type: MAIN_TYPE.subscribe, sub: [ch] }));
    }
    const until = (done: () => boolean) => vi.waitUntil(done, { timeout: 30_000, interval: 20 });
    await until(() => plainMessages.length >= 1 && deflatingMessages.length >= 1);
    const plainBefore = (plain as unknown as { _socket: { bytesRead: number } })._socket.bytesRead;
    const deflatingBefore = (deflating as unknown as { _socket: { bytesRead: number } })._socket.bytesRead;
    const bids = Array.from({ length: 3000 }, (_, i): [string, string] => [`${50000 - i}.5`, "1.25"]);
    await publish(ch, { bids, asks: [] });
    await publish(ch, { bids: bids.slice(0, 2), asks: [] });
    await until(() => plainMessages.length >= 3 && deflatingMessages.length >= 3);
    expect(deflatingMessages.slice(1)).toEqual(plainMessages.slice(1));
    expect(plainMessages[1]?.data?.bids).toEqual(bids);
    expect(plainMessages[2]?.seq).toBe((plainMessages[1]?.seq as number) + 1);
    const plainBytes =
      (plain as unknown as { _socket: { bytesRead: number } })._socket.bytesRead - plainBefore;
    const deflatingBytes =
      (deflating as unknown as { _socket: { bytesRead: number } })._socket.bytesRead - deflatingBefore;
    expect(plainBytes).toBeGreaterThan(JSON.stringify(bids).length);
    expect(deflatingBytes).toBeLessThan(plainBytes / 4);
  });

  it("serves its connections from child processes when told to, with the same protocol", async () => {
    const spread = await listenWithSocketProcesses(2);
    const spreadUrl = `ws://127.0.0.1:${(spread.server.address() as AddressInfo).port}/ws`;
    try {
      const make = (token?: string) => {
        const socket = new MarketSocket({
          url: spreadUrl,
          connect: (u) => new WebSocket(u) as unknown as SocketLike,
          token: () => token ?? null,
        });
        clients.push(socket);
        return socket;
      };
      // Three clients over two processes: both processes serve some.
      const all = [make(), make(), make()];
      const trades = all.map((socket) => collect(socket, channel.trades("ADAUSDT")));
      for (const t of trades) {
        await t.until((e) => e.length === 1, 90_000); // the children start first
      }
      const [, subscribed] = (await h.redis.pubsub(
        "NUMSUB",
        pubsubChannel(h.redisPrefix, channel.trades("ADAUSDT")),
      )) as [string, number];
      expect(subscribed).toBe(2);
      for (let i = 1; i <= 3; i++) {
        await publish(channel.trades("ADAUSDT"), [
          { id: `a${i}`, p: "1", q: "2", side: "buy", t: Date.now() },
        ]);
      }
      for (const t of trades) {
        await t.until((e) => e.length === 4);
        const seqs = t.events.slice(1).map((e) => e.seq);
        expect(seqs).toEqual(seqs.map((_, i) => (seqs[0] as number) + i));
        expect(t.events.slice(1).map((e) => (e.data as { id: string }[])[0]?.id)).toEqual(["a1", "a2", "a3"]);
      }
      // Sign-in works in the children too: a user's channel needs its token checked in the database.
      const ws = new WebSocket(spreadUrl);
      sockets.push(ws);
      await once(ws, "open");
      const replies: { main_type: number; code?: string }[] = [];
      ws.on("message", (raw) => replies.push(JSON.parse(String(raw))));
      ws.send(JSON.stringify({ main_type: MAIN_TYPE.subscribe, sub: ["user"], token: "not-a-token" }));
      await vi.waitUntil(() => replies.length > 0, { timeout: 30_000, interval: 20 });
      expect(replies[0]).toMatchObject({ main_type: MAIN_TYPE.error });
      expect(typeof replies[0]?.code).toBe("string");
    } finally {
      await spread.close();
    }
  }, 180_000);

  it("hands a connection to a child without reading what the client sends meanwhile", async () => {
    const spread = await listenWithSocketProcesses(1);
    const port = (spread.server.address() as AddressInfo).port;
    try {
      // A raw client sends its subscribe the moment this process has taken the upgrade, before the
      // child has the connection: those bytes must reach the child, not be read here and dropped.
      const socket = net.connect({ port, host: "127.0.0.1" });
      await once(socket, "connect");
      const subscribe = Buffer.from(JSON.stringify({ main_type: MAIN_TYPE.subscribe, sub: ["tickers"] }));
      const mask = Buffer.from([1, 2, 3, 4]);
      const frame = Buffer.concat([
        Buffer.from([0x81, 0x80 | subscribe.length]),
        mask,
        subscribe.map((b, i) => b ^ (mask[i & 3] as number)),
      ]);
      spread.server.once("upgrade", () => socket.write(frame));
      let received = "";
      socket.on("data", (chunk: Buffer) => {
        received += chunk.toString("latin1");
      });
      socket.write(
        `GET /ws HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
          "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n",
      );
      await vi.waitUntil(() => received.includes(`"main_type":${MAIN_TYPE.snapshot}`), {
        timeout: 90_000,
        interval: 20,
      });
      expect(received).toMatch(/^HTTP\/1\.1 101/);
      socket.destroy();
    } finally {
      await spread.close();
    }
  }, 180_000);
});
