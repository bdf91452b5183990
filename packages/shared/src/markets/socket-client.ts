import {
  type ChannelMessage,
  type ClientMessage,
  HEARTBEAT_INTERVAL_MS,
  MAIN_TYPE,
  type MarketChannel,
  RECONNECT_DELAY_MS,
  type ServerMessage,
} from "./socket.ts";

/** The parts of the WebSocket API the client uses, so Node tests can pass the `ws` package. */
export interface SocketLike {
  readyState: number;
  send(data: string): void;
  close(): void;
  onopen: ((ev: unknown) => void) | null;
  onclose: ((ev: unknown) => void) | null;
  onerror: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
}
export type SocketFactory = (url: string) => SocketLike;

export interface ChannelEvent<T> extends ChannelMessage<T> {
  /** true for the full state sent after (re)subscribing; false for an update */
  snapshot: boolean;
}
type Handler = (event: ChannelEvent<unknown>) => void;

export interface MarketSocketOptions {
  url: string;
  connect: SocketFactory;
  /** The session token, sent with subscriptions to the `user` channel. */
  token?: () => string | null;
  heartbeatMs?: number;
  reconnectMs?: number;
  /** Runs `run` after `ms` and returns what cancels it; setTimeout unless a caller keeps its own clock. */
  schedule?: (run: () => void, ms: number) => () => void;
  onStatus?: (status: "connecting" | "open" | "closed") => void;
  /** Called when an update arrives out of sequence, before resubscribing (for tests and metrics). */
  onGap?: (ch: MarketChannel, expected: number, got: number) => void;
}

const OPEN = 1;

function scheduleTimeout(run: () => void, ms: number): () => void {
  const timer = setTimeout(run, ms);
  return () => clearTimeout(timer);
}

/**
 * Client of the market socket: heartbeat every 20 s, reconnect 1 s after a close or error, and
 * per-channel sequence checks. An update whose `seq` is not the last plus one means something was
 * missed, so the client drops updates for that channel and resubscribes for a fresh snapshot.
 */
export class MarketSocket {
  private socket: SocketLike | null = null;
  private readonly handlers = new Map<MarketChannel, Set<Handler>>();
  /** Last applied seq per channel; undefined while waiting for a snapshot. */
  private readonly lastSeq = new Map<MarketChannel, number | undefined>();
  private heartbeat: ReturnType<typeof setInterval> | null = null;
  private cancelReconnect: (() => void) | null = null;
  private closed = false;

  constructor(private readonly options: MarketSocketOptions) {
    this.open();
  }

  /** Listens to a channel; returns the function that stops listening. */
  subscribe<T>(ch: MarketChannel, handler: (event: ChannelEvent<T>) => void): () => void {
    let set = this.handlers.get(ch);
    if (!set) {
      set = new Set();
      this.handlers.set(ch, set);
      this.lastSeq.set(ch, undefined);
      this.send({ main_type: MAIN_TYPE.subscribe, sub: [ch], ...this.tokenFor([ch]) });
    }
    set.add(handler as Handler);
    return () => {
      const current = this.handlers.get(ch);
      current?.delete(handler as Handler);
      if (current && current.size === 0) {
        this.handlers.delete(ch);
        this.lastSeq.delete(ch);
        this.send({ main_type: MAIN_TYPE.unsubscribe, unsub: [ch] });
      }
    };
  }

  close(): void {
    this.closed = true;
    this.stopTimers();
    this.socket?.close();
    this.socket = null;
  }

  private tokenFor(channels: MarketChannel[]): { token?: string } {
    const token = channels.includes("user") || channels.includes("support") ? this.options.token?.() : null;
    return token ? { token } : {};
  }

  private open(): void {
    if (this.closed) {
      return;
    }
    this.options.onStatus?.("connecting");
    const socket = this.options.connect(this.options.url);
    this.socket = socket;
    socket.onopen = () => {
      this.options.onStatus?.("open");
      const channels = [...this.handlers.keys()];
      for (const ch of channels) {
        this.lastSeq.set(ch, undefined);
      }
      if (channels.length > 0) {
        this.send({ main_type: MAIN_TYPE.subscribe, sub: channels, ...this.tokenFor(channels) });
      }
      this.heartbeat = setInterval(
        () => this.send({ main_type: MAIN_TYPE.heartbeat, time: Math.floor(Date.now() / 1000) }),
        this.options.heartbeatMs ?? HEARTBEAT_INTERVAL_MS,
      );
    };
    socket.onmessage = (ev) => this.receive(String(ev.data));
    const lost = () => {
      if (this.socket !== socket) {
        return;
      }
      this.socket = null;
      this.stopTimers();
      this.options.onStatus?.("closed");
      if (!this.closed) {
        const schedule = this.options.schedule ?? scheduleTimeout;
        this.cancelReconnect = schedule(() => this.open(), this.options.reconnectMs ?? RECONNECT_DELAY_MS);
      }
    };
    socket.onclose = lost;
    socket.onerror = () => {
      lost();
      socket.close();
    };
  }

  private stopTimers(): void {
    if (this.heartbeat) {
      clearInterval(this.heartbeat);
    }
    this.cancelReconnect?.();
    this.heartbeat = null;
    this.cancelReconnect = null;
  }

  private send(message: ClientMessage): void {
    if (this.socket?.readyState === OPEN) {
      this.socket.send(JSON.stringify(message));
    }
  }

  private receive(raw: string): void {
    let message: ServerMessage;
    try {
      message = JSON.parse(raw) as ServerMessage;
    } catch {
      return;
    }
    if (message.main_type !== MAIN_TYPE.snapshot && message.main_type !== MAIN_TYPE.update) {
      return;
    }
    const handlers = this.handlers.get(message.ch);
    if (!handlers) {
      return;
    }
    const snapshot = message.main_type === MAIN_TYPE.snapshot;
    if (!snapshot) {
      const last = this.lastSeq.get(message.ch);
      if (last === undefined) {
        return; // still waiting for the snapshot
      }
      if (message.seq <= last) {
        return; // already contained in the snapshot
      }
      // A snapshot at seq 0 means nothing was published on the channel before (the `user` channel's
      // always is): the first update, whatever its number, starts the sequence. Publishers number
      // from their start time, so that a successor's updates are never taken for old ones.
      if (message.seq !== last + 1 && last !== 0) {
        this.options.onGap?.(message.ch, last + 1, message.seq);
        this.lastSeq.set(message.ch, undefined);
        this.send({ main_type: MAIN_TYPE.subscribe, sub: [message.ch], ...this.tokenFor([message.ch]) });
        return;
      }
    }
    this.lastSeq.set(message.ch, message.seq);
    const event: ChannelEvent<unknown> = {
      ch: message.ch,
      seq: message.seq,
      ts: message.ts,
      data: message.data,
      snapshot,
    };
    for (const handler of handlers) {
      handler(event);
    }
  }
}
