import { createHash } from "node:crypto";
import net from "node:net";
import { deflateRawSync, constants as zlibConstants } from "node:zlib";
import { pubsubChannel, readSnapshot } from "@northstar/domain/markets";
import { Redis } from "ioredis";

/**
 * The floor of the socket benchmark: the least a Node process can do to serve the market socket's
 * `tickers` channel, run in place of the API. A plain `net` server with no HTTP framework, no `ws`, no
 * per-client state beyond the socket: it answers the WebSocket handshake, sends the snapshot on
 * subscribe, answers heartbeats, and writes every update, framed once, to every socket with one
 * `socket.write` — the same bytes the API sends (its frame head, the publisher's JSON, compressed the
 * same way for clients that offered permessage-deflate). What the API costs above this is its own.
 *
 * Environment: PORT, REDIS_URL, REDIS_PREFIX. `GET /health` answers 200 so the bench can wait for it.
 */
const PORT = Number(process.env.PORT ?? 3900);
const prefix = process.env.REDIS_PREFIX ?? "";
const redis = new Redis(process.env.REDIS_URL ?? "redis://127.0.0.1:6379");
const subscriber = redis.duplicate();
const WS_GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";
const channel = pubsubChannel(prefix, "tickers");

function header(length: number, compressed: boolean): Buffer {
  const first = compressed ? 0xc1 : 0x81;
  if (length < 126) {
    return Buffer.from([first, length]);
  }
  const h = Buffer.alloc(length < 65536 ? 4 : 10);
  h[0] = first;
  if (length < 65536) {
    h[1] = 126;
    h.writeUInt16BE(length, 2);
  } else {
    h[1] = 127;
    h.writeBigUInt64BE(BigInt(length), 2);
  }
  return h;
}
const plainFrame = (payload: Buffer) => Buffer.concat([header(payload.length, false), payload]);
/** As the API: compressed on its own, sync-flushed, its 4-byte tail dropped (RFC 7692 §7.2.1). */
function deflatedFrame(payload: Buffer): Buffer {
  const body = deflateRawSync(payload, { level: 1, finishFlush: zlibConstants.Z_SYNC_FLUSH });
  return Buffer.concat([header(body.length - 4, true), body.subarray(0, body.length - 4)]);
}
const utime = () => Math.floor(Date.now() / 1000);

interface Peer {
  socket: net.Socket;
  deflate: boolean;
  /** updates held while the snapshot is read, as the API holds them */
  pending: Buffer[][] | null;
}
const subscribed = new Set<Peer>();

subscriber.on("messageBuffer", (_channel: Buffer, message: Buffer) => {
  const payload = Buffer.concat([Buffer.from(`{"main_type":5,"utime":${utime()},`), message.subarray(1)]);
  const frames = [plainFrame(payload), payload.length >= 1024 ? deflatedFrame(payload) : plainFrame(payload)];
  for (const peer of subscribed) {
    if (peer.pending) {
      peer.pending.push(frames);
    } else {
      peer.socket.write(frames[peer.deflate ? 1 : 0] as Buffer);
    }
  }
});

async function subscribe(peer: Peer): Promise<void> {
  peer.pending = [];
  subscribed.add(peer);
  const snapshot = await readSnapshot(redis, prefix, "tickers");
  const message = { main_type: 4, ch: "tickers", seq: snapshot?.seq ?? 0, ts: snapshot?.ts ?? Date.now() };
  peer.socket.write(
    plainFrame(Buffer.from(JSON.stringify({ ...message, data: snapshot?.data ?? null, utime: utime() }))),
  );
  for (const frames of peer.pending) {
    peer.socket.write(frames[peer.deflate ? 1 : 0] as Buffer);
  }
  peer.pending = null;
}

/** Reads the client's masked frames (short text messages only: subscribe, heartbeat, close). */
function readFrames(peer: Peer, data: Buffer): Buffer {
  let offset = 0;
  while (data.length - offset >= 6) {
    const opcode = (data[offset] as number) & 0x0f;
    const length = (data[offset + 1] as number) & 0x7f;
    if (length >= 126 || opcode === 8) {
      peer.socket.destroy();
      return Buffer.alloc(0);
    }
    if (data.length - offset < 6 + length) {
      break;
    }
    const payload = Buffer.alloc(length);
    for (let i = 0; i < length; i++) {
      payload[i] = (data[offset + 6 + i] as number) ^ (data[offset + 2 + (i & 3)] as number);
    }
    offset += 6 + length;
    const text = payload.toString("latin1");
    if (text.startsWith('{"main_type":1')) {
      peer.socket.write(plainFrame(Buffer.from(JSON.stringify({ main_type: 1, utime: utime() }))));
    } else if (text.startsWith('{"main_type":2')) {
      subscribe(peer).catch(() => peer.socket.destroy());
    }
  }
  return data.subarray(offset);
}

const server = net.createServer((socket) => {
  socket.setNoDelay(true);
  let request: Buffer | null = Buffer.alloc(0);
  let rest: Buffer = Buffer.alloc(0);
  const peer: Peer = { socket, deflate: false, pending: null };
  socket.on("data", (chunk: Buffer) => {
    if (request) {
      request = Buffer.concat([request, chunk]);
      const end = request.indexOf("\r\n\r\n");
      if (end < 0) {
        return;
      }
      const head = request.toString("latin1", 0, end);
      chunk = request.subarray(end + 4);
      request = null;
      if (head.startsWith("GET /health")) {
        socket.end("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok");
        return;
      }
      const key = /^sec-websocket-key:\s*(\S+)/im.exec(head)?.[1] ?? "";
      peer.deflate = /^sec-websocket-extensions:.*permessage-deflate/im.test(head);
      const accept = createHash("sha1")
        .update(key + WS_GUID)
        .digest("base64");
      socket.write(
        "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
          `Sec-WebSocket-Accept: ${accept}\r\n` +
          (peer.deflate
            ? "Sec-WebSocket-Extensions: permessage-deflate; server_no_context_takeover; client_no_context_takeover\r\n"
            : "") +
          "\r\n",
      );
    }
    rest = readFrames(peer, rest.length ? Buffer.concat([rest, chunk]) : chunk);
  });
  socket.on("error", () => {});
  socket.on("close", () => subscribed.delete(peer));
});

await subscriber.subscribe(channel);
server.listen({ port: PORT, host: "0.0.0.0", backlog: 511 });
process.on("SIGTERM", () => {
  server.close();
  for (const peer of subscribed) {
    peer.socket.destroy();
  }
  subscriber.disconnect();
  redis.disconnect();
  process.exit(0);
});
