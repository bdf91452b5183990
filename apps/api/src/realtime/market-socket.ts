import { once } from "node:events";
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { deflateRawSync, constants as zlibConstants } from "node:zlib";
import { authenticateOperator } from "@northstar/domain/admin";
import type { Db } from "@northstar/domain/db";
import { authenticate } from "@northstar/domain/identity";
import { pubsubChannel, readSnapshot, userChannel } from "@northstar/domain/markets";
import { HEARTBEAT_INTERVAL_MS, isValidChannel, MAIN_TYPE } from "@northstar/shared/markets";
import { can } from "@northstar/shared/operators";
import type { FastifyInstance } from "fastify";
import type { Redis } from "ioredis";
import { type RawData, WebSocket, WebSocketServer } from "ws";
import type { AppDeps } from "../http/deps.ts";
import { startSocketProcesses } from "./socket-processes.ts";
import type { MarketSocketServer, SocketLog, SocketStats } from "./socket-types.ts";

/**
 * An update framed once for every subscriber: the payload (for `ws.send`), the complete plain
 * WebSocket frame, and, made on first need, the same message compressed (permessage-deflate, RFC 7692)
 * for the clients that negotiated it. Server frames are unmasked, so the bytes are the same for all.
 */
interface Frame {
  payload: Buffer;
  raw: Buffer;
  deflated: Buffer | null;
}

/** Header of an unmasked, final text frame (RFC 6455 §5.2); `compressed` sets RSV1 (RFC 7692 §6). */
function frameHeader(length: number, compressed = false): Buffer {
  const first = compressed ? 0xc1 : 0x81;
  if (length < 126) {
    return Buffer.from([first, length]);
  }
  if (length < 65536) {
    const header = Buffer.alloc(4);
    header[0] = first;
    header[1] = 126;
    header.writeUInt16BE(length, 2);
    return header;
  }
  const header = Buffer.alloc(10);
  header[0] = first;
  header[1] = 127;
  header.writeBigUInt64BE(BigInt(length), 2);
  return header;
}

function makeFrame(payload: Buffer): Frame {
  return { payload, raw: Buffer.concat([frameHeader(payload.length), payload]), deflated: null };
}

/**
 * The message compressed on its own (no context from earlier messages, so every client can inflate
 * it whatever it received before), ended by a sync flush whose 4-byte tail RFC 7692 §7.2.1 drops.
 * Compressed once per update, not per client: a ticker frame shrinks several times, which is the
 * bandwidth of the fan-out and part of its CPU (the kernel copies every byte per client).
 */
function deflatedFrame(frame: Frame): Buffer {
  if (!frame.deflated) {
    const body = deflateRawSync(frame.payload, { level: 1, finishFlush: zlibConstants.Z_SYNC_FLUSH });
    const payload = body.subarray(0, body.length - 4);
    frame.deflated = Buffer.concat([frameHeader(payload.length, true), payload]);
  }
  return frame.deflated;
}

/** Smaller than this, a message is sent plain: the frame would hardly shrink. */
const DEFLATE_MIN_BYTES = 1024;

/**
 * Whether the client negotiated permessage-deflate with a window our 15-bit compression fits in
 * (a client may ask for a smaller one; it then gets plain frames, which are always allowed).
 */
function acceptsDeflate(ws: WebSocket): boolean {
  const extensions = (ws as unknown as { _extensions?: Record<string, { params?: Record<string, unknown> }> })
    ._extensions;
  const params = extensions?.["permessage-deflate"]?.params;
  if (!params) {
    return false;
  }
  const bits = params.server_max_window_bits;
  return bits === undefined || bits === true || Number(bits) >= 15;
}

/**
 * Writes a frame straight to the client's TCP socket: one write per client instead of ws's per-send
 * framing (a header, cork, two writes). Safe because ws itself never compresses here (every `send`
 * passes `compress: false`) and never sends blobs, so ws never has a frame half-written or queued
 * that this write could overtake. Falls back to `send` if the socket is not reachable.
 */
function writeFrame(client: Client, frame: Frame): void {
  const socket = client.socket;
  if (socket && !socket.destroyed) {
    socket.write(
      client.deflate && frame.payload.length >= DEFLATE_MIN_BYTES ? deflatedFrame(frame) : frame.raw,
    );
  } else {
    client.ws.send(frame.payload, { binary: false, compress: false });
  }
}

/** A client silent for three heartbeat intervals is gone; a client this far behind is too slow. */
const IDLE_LIMIT_MS = 3 * HEARTBEAT_INTERVAL_MS;
const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;
const MAX_CHANNELS_PER_CLIENT = 200;

interface Client {
  ws: WebSocket;
  socket: Duplex | undefined;
  /** negotiated permessage-deflate: gets the shared compressed frames */
  deflate: boolean;
  lastSeen: number;
  /** client channel name → Redis channel it is served from */
  channels: Map<string, string>;
  /** Channels whose snapshot is on its way; updates wait here so none is lost or sent early. */
  pending: Map<string, Frame[]>;
}

/** What the socket server needs: the database (sign-in tokens) and Redis (updates, snapshots). */
export interface MarketSocketDeps {
  db: Db;
  redis: Redis;
  config: { redisPrefix: string };
}

/**
 * The market socket at `/ws` (protocol in docs/market-socket.md), served in this process, or, with
 * `processes` > 0, by that many child processes the upgraded connections are handed to (each child
 * serves its share in full: subscriptions, snapshots, the fan-out), so that the fan-out's socket
 * writes, which cost the kernel several µs each, run on every core.
 */
export function attachMarketSocket(
  app: FastifyInstance,
  deps: AppDeps,
  options: { processes?: number } = {},
): { close(): Promise<void>; stats(): SocketStats | null } {
  const processes = options.processes ?? deps.config.marketSocketProcesses ?? 0;
  const server =
    processes > 0
      ? startSocketProcesses(processes, app.log, deps.config.redisPrefix)
      : createMarketSocketServer(deps, app.log);
  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = (req.url ?? "").split("?")[0];
    if (path !== "/ws") {
      // /ws/<listenKey> and /ws/<stream>, /stream are the bot API's streams (binance/user-stream.ts,
      // binance/market-streams.ts).
      if (!path?.startsWith("/ws/") && !path?.startsWith("/stream")) {
        socket.destroy();
      }
      return;
    }
    server.handleUpgrade(req, socket, head);
  };
  app.server.on("upgrade", onUpgrade);
  return {
    async close() {
      app.server.off("upgrade", onUpgrade);
      await server.close();
    },
    stats: () => server.stats(),
  };
}

/**
 * The socket server of one process. Updates arrive on Redis pub/sub from whichever process
 * publishes them; each is framed once and written to every subscriber, so the cost per client is
 * one socket write. The server keeps no market state of its own.
 */
export function createMarketSocketServer(deps: MarketSocketDeps, log: SocketLog): MarketSocketServer {
  const prefix = deps.config.redisPrefix;
  // permessage-deflate is negotiated so that updates can go out compressed, but ws compresses nothing
  // itself (each send says so): updates are compressed once per message for all clients, and no
  // per-client compression context is kept.
  const wss = new WebSocketServer({
    noServer: true,
    perMessageDeflate: { serverNoContextTakeover: true, clientNoContextTakeover: true, threshold: Infinity },
    maxPayload: 16 * 1024,
  });
  const subscriber: Redis = deps.redis.duplicate();
  /** Redis channel → the clients subscribed to it, with the channel name they know it by. */
  const routes = new Map<string, Map<Client, string>>();
  const clients = new Set<Client>();
  let closed = false;
  subscriber.on("error", (error) => log.warn({ err: error }, "market socket: redis subscriber"));
  // Subscriptions are sent on a ready connection only, never from ioredis's offline queue, so that a
  // snapshot is never sent before its channel's updates are really coming.
  const subscriberReady =
    subscriber.status === "ready" ? Promise.resolve() : once(subscriber, "ready").then(() => {});
  subscriberReady.catch(() => {});

  const utime = () => Math.floor(Date.now() / 1000);
  const sendJson = (client: Client, message: object) => {
    if (client.ws.readyState === WebSocket.OPEN) {
      client.ws.send(JSON.stringify({ ...message, utime: utime() }), { compress: false });
    }
  };

  subscriber.on("messageBuffer", (channelBuffer: Buffer, message: Buffer) => {
    const subscribers = routes.get(channelBuffer.toString());
    if (!subscribers || subscribers.size === 0) {
      return;
    }
    // Framed once for all subscribers: the publisher's JSON with main_type and utime put in front,
    // inside one complete WebSocket frame (server frames are unmasked, so the bytes are the same
    // for every client).
    const head = Buffer.from(`{"main_type":${MAIN_TYPE.update},"utime":${utime()},`);
    const payload = Buffer.concat([head, message.subarray(1)]);
    const frame = makeFrame(payload);
    for (const [client, name] of subscribers) {
      // Most clients have no snapshot on its way: skip the lookup for them.
      const queue = client.pending.size > 0 ? client.pending.get(name) : undefined;
      if (queue) {
        queue.push(frame);
      } else {
        write(client, frame);
      }
    }
  });

  function write(client: Client, frame: Frame) {
    if (client.ws.readyState !== WebSocket.OPEN) {
      return;
    }
    if (client.ws.bufferedAmount > MAX_BUFFERED_BYTES) {
      // A client that cannot keep up is dropped; it reconnects and starts from fresh snapshots.
      client.ws.close(1013, "too slow");
      return;
    }
    writeFrame(client, frame);
  }

  async function subscribe(client: Client, names: unknown[], token: unknown) {
    for (const name of names) {
      if (typeof name !== "string" || !isValidChannel(name)) {
        sendJson(client, {
          main_type: MAIN_TYPE.error,
          ch: String(name).slice(0, 64),
          code: "CHANNEL_UNKNOWN",
        });
        continue;
      }
      if (!client.channels.has(name) && client.channels.size >= MAX_CHANNELS_PER_CLIENT) {
        sendJson(client, { main_type: MAIN_TYPE.error, ch: name, code: "TOO_MANY_CHANNELS" });
        continue;
      }
      let source = name;
      if (name === "support") {
        // The operator console: any active operator whose role answers customers.
        const operator =
          typeof token === "string" ? await authenticateOperator(deps.db, token).catch(() => null) : null;
        if (!operator || !can(operator.role, "support.chat")) {
          sendJson(client, {
            main_type: MAIN_TYPE.error,
            ch: name,
            code: operator ? "FORBIDDEN" : "LOGIN_REQUIRED",
          });
          continue;
        }
      } else if (name === "user") {
        try {
          const auth = await authenticate(deps.db, typeof token === "string" ? token : undefined);
          source = userChannel(auth.user.id);
        } catch (error) {
          const code = error instanceof Error && "code" in error ? String(error.code) : "LOGIN_REQUIRED";
          sendJson(client, { main_type: MAIN_TYPE.error, ch: name, code });
          continue;
        }
      }
      const redisChannel = pubsubChannel(prefix, source);
      // Resubscribing (after a gap) re-sends the snapshot; updates queue until it has gone out.
      client.pending.set(name, []);
      if (client.channels.get(name) !== redisChannel) {
        const previous = client.channels.get(name);
        if (previous) {
          unroute(client, previous);
        }
        client.channels.set(name, redisChannel);
        let set = routes.get(redisChannel);
        if (!set) {
          set = new Map();
          routes.set(redisChannel, set);
          await subscriberReady;
          await subscriber.subscribe(redisChannel);
        }
        set.set(client, name);
      }
      const snapshot =
        name === "user" || name === "support" ? null : await readSnapshot(deps.redis, prefix, source);
      const seq = snapshot?.seq ?? 0;
      sendJson(client, {
        main_type: MAIN_TYPE.snapshot,
        ch: name,
        seq,
        ts: snapshot?.ts ?? Date.now(),
        data: snapshot?.data ?? null,
      });
      const queued = client.pending.get(name) ?? [];
      client.pending.delete(name);
      for (const frame of queued) {
        // Updates already contained in the snapshot are skipped by the client by their seq.
        write(client, frame);
      }
    }
  }

  function unroute(client: Client, redisChannel: string) {
    const set = routes.get(redisChannel);
    if (!set) {
      return;
    }
    set.delete(client);
    if (set.size === 0) {
      routes.delete(redisChannel);
      if (closed) {
        return;
      }
      subscriber.unsubscribe(redisChannel).catch(() => {});
    }
  }

  function unsubscribe(client: Client, names: unknown[]) {
    for (const name of names) {
      if (typeof name !== "string") {
        continue;
      }
      const redisChannel = client.channels.get(name);
      if (!redisChannel) {
        continue;
      }
      client.channels.delete(name);
      client.pending.delete(name);
      unroute(client, redisChannel);
    }
  }

  function receive(client: Client, raw: RawData) {
    client.lastSeen = Date.now();
    let message: { main_type?: unknown; sub?: unknown; unsub?: unknown; token?: unknown };
    try {
      message = JSON.parse(raw.toString());
    } catch {
      sendJson(client, { main_type: MAIN_TYPE.error, code: "BAD_MESSAGE" });
      return;
    }
    switch (message?.main_type) {
      case MAIN_TYPE.heartbeat:
        sendJson(client, { main_type: MAIN_TYPE.heartbeat });
        return;
      case MAIN_TYPE.subscribe:
        if (Array.isArray(message.sub)) {
          subscribe(client, message.sub, message.token).catch((error) => {
            log.error({ err: error }, "market socket subscribe failed");
            sendJson(client, { main_type: MAIN_TYPE.error, code: "REQUEST_ERROR" });
          });
          return;
        }
        break;
      case MAIN_TYPE.unsubscribe:
        if (Array.isArray(message.unsub)) {
          unsubscribe(client, message.unsub);
          return;
        }
        break;
    }
    sendJson(client, { main_type: MAIN_TYPE.error, code: "BAD_MESSAGE" });
  }

  wss.on("connection", (ws: WebSocket) => {
    const client: Client = {
      ws,
      socket: (ws as unknown as { _socket?: Duplex })._socket,
      deflate: acceptsDeflate(ws),
      lastSeen: Date.now(),
      channels: new Map(),
      pending: new Map(),
    };
    clients.add(client);
    ws.on("message", (raw) => receive(client, raw));
    ws.on("error", () => ws.terminate());
    ws.on("close", () => {
      clients.delete(client);
      for (const redisChannel of client.channels.values()) {
        unroute(client, redisChannel);
      }
      client.channels.clear();
    });
  });

  const sweep = setInterval(() => {
    const cutoff = Date.now() - IDLE_LIMIT_MS;
    for (const client of clients) {
      if (client.lastSeen < cutoff) {
        client.ws.terminate();
      }
    }
  }, HEARTBEAT_INTERVAL_MS);
  sweep.unref();

  return {
    handleUpgrade(req, socket, head) {
      wss.handleUpgrade(req, socket, head, (ws) => wss.emit("connection", ws, req));
    },
    stats() {
      let backlogBytes = 0;
      for (const client of clients) {
        backlogBytes += client.ws.bufferedAmount;
      }
      return { clients: clients.size, backlogBytes };
    },
    async close() {
      if (closed) {
        return;
      }
      closed = true;
      clearInterval(sweep);
      for (const client of clients) {
        client.ws.terminate();
      }
      wss.close();
      await subscriber.quit().catch(() => {});
    },
  };
}
