import { createHash, randomBytes } from "node:crypto";
import net from "node:net";
import { inflateRawSync, constants as zlibConstants } from "node:zlib";

/**
 * A child process of the socket benchmark: opens `count` WebSocket connections to the market socket
 * over real TCP, subscribes each to `tickers`, and records for every update the delay from the
 * publisher's `ts` to the moment the frame's last byte has arrived.
 *
 * It is a WebSocket client of its own rather than the `ws` package so that the clients, which share
 * the machine's cores with the API, cost as little CPU as possible: it does the real handshake
 * (checking `Sec-WebSocket-Accept`), sends masked client frames (the subscribe and a heartbeat every
 * 20 s, spread over the connections as real clients' are), and reads every byte of every server frame
 * through a minimal frame parser that keeps only the head of each payload, where `main_type`, `seq`
 * and `ts` are. It checks each connection's `seq` for gaps, so a lost update is counted, not hidden.
 */
const [url, countArg, addressArg, deflateArg] = process.argv.slice(2);
/** Whether the clients offer permessage-deflate (RFC 7692), as browsers do. */
const offerDeflate = deflateArg !== "plain";
const target = new URL(url as string);
const count = Number(countArg);
const localAddress = addressArg ?? "127.0.0.1";
const WS_GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";
const HEARTBEAT_MS = 20_000;
/** Bytes of each payload kept for reading: `{"main_type":5,"utime":…,"ch":"tickers","seq":…,"ts":…` */
const HEAD_BYTES = 128;
/** Bytes of a compressed payload kept: enough to inflate its first HEAD_BYTES. */
const DEFLATED_HEAD_BYTES = 320;
/**
 * Every client of this process gets the same compressed bytes for an update, so the last head
 * inflated is kept and reused when the next compressed head is byte-for-byte the same.
 */
let lastDeflatedHead: Buffer = Buffer.alloc(0);
let lastInflatedHead = "";
function inflateHead(deflated: Buffer): string {
  if (!deflated.equals(lastDeflatedHead)) {
    try {
      // A truncated stream: inflate what is there (the head of the payload) without wanting its end.
      lastInflatedHead = inflateRawSync(deflated, { finishFlush: zlibConstants.Z_SYNC_FLUSH }).toString(
        "latin1",
        0,
        HEAD_BYTES,
      );
    } catch {
      lastInflatedHead = "";
    }
    lastDeflatedHead = Buffer.from(deflated);
  }
  return lastInflatedHead;
}
const readBuffer = Buffer.allocUnsafe(256 * 1024);

let recording = false;
const delays: number[] = [];
/** Per update `seq`: the smallest and largest delay among this process's clients. */
const spread: Record<number, [number, number]> = {};
let frames = 0;
let bytes = 0;
let snapshots = 0;
let gaps = 0;
let closed = 0;
let closedBySlowness = 0;
let stopping = false;

/** A masked client frame (RFC 6455 §5.3) holding one short text message. */
function clientFrame(text: string): Buffer {
  const payload = Buffer.from(text);
  if (payload.length >= 126) {
    throw new Error("client messages of the benchmark are short");
  }
  const frame = Buffer.alloc(6 + payload.length);
  frame[0] = 0x81;
  frame[1] = 0x80 | payload.length;
  const mask = randomBytes(4);
  mask.copy(frame, 2);
  for (let i = 0; i < payload.length; i++) {
    frame[6 + i] = (payload[i] as number) ^ (mask[i & 3] as number);
  }
  return frame;
}

function numberAfter(head: string, key: string): number {
  const at = head.indexOf(key);
  return at < 0 ? Number.NaN : Number.parseInt(head.slice(at + key.length, at + key.length + 20), 10);
}

class Client {
  readonly socket: net.Socket;
  private handshake: Buffer | null = Buffer.alloc(0);
  private readonly accept: string;
  /** Header bytes of a frame split across reads. */
  private header: Buffer | null = null;
  /** Payload bytes still to come of the current frame; -1 between frames. */
  private remaining = -1;
  private opcode = 0;
  private fin = true;
  private head = "";
  /** The current frame is compressed (RSV1): its head is kept as bytes and inflated at its end. */
  private compressed = false;
  private deflatedHead: Buffer | null = null;
  private deflatedLength = 0;
  private lastSeq = -1;
  private subscribed = false;

  constructor(private readonly onSubscribed: () => void) {
    const key = randomBytes(16).toString("base64");
    this.accept = createHash("sha1")
      .update(key + WS_GUID)
      .digest("base64");
    this.socket = net.connect({
      host: target.hostname,
      port: Number(target.port),
      localAddress,
      // Every read lands in the one buffer of this process and is parsed at once: no allocation, no
      // stream machinery and no garbage per frame.
      onread: {
        buffer: readBuffer,
        callback: (length: number, buffer: Uint8Array) => {
          this.receive(Buffer.from(buffer.buffer, buffer.byteOffset, length));
          return true;
        },
      },
    });
    this.socket.setNoDelay(true);
    this.socket.on("connect", () => {
      this.socket.write(
        `GET ${target.pathname} HTTP/1.1\r\nHost: ${target.host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
          `Sec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\n` +
          (offerDeflate ? "Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits\r\n" : "") +
          "\r\n",
      );
    });
    this.socket.on("close", () => {
      if (!stopping) {
        closed++;
      }
      this.done();
    });
    this.socket.on("error", () => {});
  }

  send(text: string): void {
    if (!this.handshake && !this.socket.destroyed) {
      this.socket.write(clientFrame(text));
    }
  }

  private done(): void {
    if (!this.subscribed) {
      this.subscribed = true;
      this.onSubscribed();
    }
  }

  private receive(received: Buffer): void {
    bytes += received.length;
    let chunk = received;
    let offset = 0;
    if (this.handshake) {
      const data = Buffer.concat([this.handshake, received]);
      const end = data.indexOf("\r\n\r\n");
      if (end < 0) {
        this.handshake = data;
        return;
      }
      const response = data.toString("latin1", 0, end);
      if (
        !response.startsWith("HTTP/1.1 101") ||
        !response.includes(`Sec-WebSocket-Accept: ${this.accept}`)
      ) {
        this.socket.destroy();
        return;
      }
      this.handshake = null;
      this.send('{"main_type":2,"sub":["tickers"]}');
      chunk = data.subarray(end + 4);
    }
    while (offset < chunk.length) {
      if (this.remaining < 0) {
        offset = this.readHeader(chunk, offset);
        continue;
      }
      const take = Math.min(this.remaining, chunk.length - offset);
      if (this.compressed) {
        if (this.deflatedLength < DEFLATED_HEAD_BYTES && take > 0) {
          this.deflatedHead ??= Buffer.allocUnsafe(DEFLATED_HEAD_BYTES);
          const n = Math.min(take, DEFLATED_HEAD_BYTES - this.deflatedLength);
          chunk.copy(this.deflatedHead, this.deflatedLength, offset, offset + n);
          this.deflatedLength += n;
        }
      } else if (this.head.length < HEAD_BYTES && take > 0) {
        this.head += chunk.toString("latin1", offset, offset + Math.min(take, HEAD_BYTES - this.head.length));
      }
      this.remaining -= take;
      offset += take;
      if (this.remaining === 0) {
        this.remaining = -1;
        this.frame();
      }
    }
  }

  /** Reads a frame header from `chunk` at `offset` (keeping a partial one); returns the new offset. */
  private readHeader(chunk: Buffer, offset: number): number {
    let data = chunk;
    let start = offset;
    if (this.header) {
      data = Buffer.concat([this.header, chunk.subarray(offset)]);
      start = 0;
    }
    const available = data.length - start;
    if (available < 2) {
      this.header = Buffer.from(data.subarray(start));
      return chunk.length;
    }
    const b0 = data[start] as number;
    const b1 = data[start + 1] as number;
    let length = b1 & 0x7f;
    let size = 2;
    if (length === 126) {
      size = 4;
    } else if (length === 127) {
      size = 10;
    }
    if (b1 & 0x80) {
      size += 4; // a server never masks, but skip a mask key if there is one
    }
    if (available < size) {
      this.header = Buffer.from(data.subarray(start));
      return chunk.length;
    }
    if (length === 126) {
      length = data.readUInt16BE(start + 2);
    } else if (length === 127) {
      length = Number(data.readBigUInt64BE(start + 2));
    }
    const consumed = size - (this.header ? this.header.length : 0);
    this.header = null;
    const opcode = b0 & 0x0f;
    if (opcode !== 0) {
      this.opcode = opcode;
      this.head = "";
      this.compressed = (b0 & 0x40) !== 0;
      this.deflatedLength = 0;
    }
    this.fin = (b0 & 0x80) !== 0;
    this.remaining = length;
    const next = offset + consumed;
    if (length === 0) {
      this.remaining = -1;
      this.frame();
    }
    return next;
  }

  /** A frame is complete: every byte of it has been read. */
  private frame(): void {
    if (!this.fin) {
      return;
    }
    const arrived = Date.now();
    if (this.compressed && this.deflatedHead) {
      this.head = inflateHead(this.deflatedHead.subarray(0, this.deflatedLength));
    }
    const head = this.head;
    this.head = "";
    if (this.opcode === 8) {
      if (!stopping && head.length >= 2 && ((head.charCodeAt(0) << 8) | head.charCodeAt(1)) === 1013) {
        closedBySlowness++;
      }
      this.socket.destroy();
      return;
    }
    if (this.opcode !== 1) {
      return;
    }
    if (head.startsWith('{"main_type":4')) {
      snapshots++;
      this.lastSeq = numberAfter(head, '"seq":');
      this.done();
      return;
    }
    if (!head.startsWith('{"main_type":5')) {
      return;
    }
    const seq = numberAfter(head, '"seq":');
    if (this.lastSeq >= 0 && seq !== this.lastSeq + 1 && seq > this.lastSeq) {
      gaps++;
    }
    if (seq > this.lastSeq) {
      this.lastSeq = seq;
    }
    if (recording) {
      const delay = arrived - numberAfter(head, '"ts":');
      frames++;
      delays.push(delay);
      const range = spread[seq];
      if (range) {
        range[0] = Math.min(range[0], delay);
        range[1] = Math.max(range[1], delay);
      } else {
        spread[seq] = [delay, delay];
      }
    }
  }
}

const clients: Client[] = [];

function open(): Promise<void> {
  return new Promise((resolve) => {
    clients.push(new Client(resolve));
  });
}

// Every client heartbeats once per 20 s, as MarketSocket does; spread over the seconds.
let beat = 0;
const heartbeats = setInterval(() => {
  const slices = HEARTBEAT_MS / 1000;
  const message = `{"main_type":1,"time":${Math.floor(Date.now() / 1000)}}`;
  for (let i = beat % slices; i < clients.length; i += slices) {
    clients[i]?.send(message);
  }
  beat++;
}, 1000);

process.on("message", async (message: { cmd: string }) => {
  if (message.cmd === "connect") {
    // Open in small batches so the listen backlog never overflows.
    for (let i = 0; i < count; i += 250) {
      await Promise.all(Array.from({ length: Math.min(250, count - i) }, () => open()));
    }
    process.send?.({ cmd: "connected", snapshots, closed });
  } else if (message.cmd === "record") {
    recording = true;
  } else if (message.cmd === "report") {
    recording = false;
    process.send?.({ cmd: "report", delays, spread, frames, bytes, gaps, closed, closedBySlowness });
  } else if (message.cmd === "close") {
    stopping = true;
    clearInterval(heartbeats);
    for (const client of clients) {
      client.socket.destroy();
    }
    setTimeout(() => process.exit(0), 200);
  }
});
process.send?.({ cmd: "ready" });
