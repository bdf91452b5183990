import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { AppError } from "@northstar/domain/errors";
import { type InstrumentView, pubsubChannel, snapshotKey } from "@northstar/domain/markets";
import { type Language, toLanguage } from "@northstar/shared/languages";
import {
  type Candle,
  type ChannelMessage,
  channel,
  type Depth,
  type MarketTrade,
  type Ticker,
} from "@northstar/shared/markets";
import { MoneyDecimal } from "@northstar/shared/money";
import type { FastifyInstance } from "fastify";
import type { Redis } from "ioredis";
import { type RawData, WebSocket, WebSocketServer } from "ws";
import type { AppDeps } from "../http/deps.ts";
import { toBinanceRefusal } from "./errors.ts";
import { klineCloseTime, spotMarkets } from "./market.ts";
import { parseStreamName, type StreamSpec } from "./stream-names.ts";
import { binanceSymbol } from "./views.ts";

/** Streams one connection may hold, as the market socket's channels per client. */
export const MAX_STREAMS_PER_CONNECTION = 200;
/** A client this far behind is dropped, as on the market socket. */
const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;

/** The platform channel a stream is made from (the same Redis channels the market socket serves). */
function sourceOf(spec: StreamSpec, instrument: InstrumentView | null): string {
  if (!instrument) {
    // The all-market stream: every spot market's ticker.
    return channel.tickers();
  }
  switch (spec.kind) {
    case "trade":
    case "aggTrade":
      return channel.trades(instrument.symbol);
    case "kline":
      return channel.kline(instrument.symbol, spec.interval ?? "1m");
    case "ticker":
    case "miniTicker":
      return channel.tickers();
    default:
      return channel.depth(instrument.symbol);
  }
}

interface Client {
  /** null until the handshake is done */
  ws: WebSocket | null;
  /** `/stream` connections get `{stream, data}`; `/ws` ones the bare payload. */
  combined: boolean;
  lang: Language;
  streams: Map<string, Source>;
  /** Requests are answered in order: a SUBSCRIBE's refusal or result before the next one's. */
  queue: Promise<void>;
}

/** One platform channel and the streams made from it in this process. */
interface Source {
  redisChannel: string;
  /** stream name → its spec, its catalogue instrument (none for an all-market stream) and its clients */
  streams: Map<string, { spec: StreamSpec; instrument: InstrumentView | null; clients: Set<Client> }>;
  /** Updates that arrive while the channel's snapshot is read wait here. */
  pending: ChannelMessage[] | null;
  ready: Promise<void>;
  /** the last book, for the diff and book-ticker streams */
  book: Depth | null;
  seq: number;
  /** the forming candle, to close it with `x: true` when the next one starts */
  candle: Candle | null;
}

/**
 * Public market streams in Binance's format (docs/bot-api.md): `/ws/<stream>[/<stream>…]` sends each
 * stream's payloads bare, `/stream?streams=a/b` wraps them as `{stream, data}`; either takes
 * SUBSCRIBE, UNSUBSCRIBE and LIST_SUBSCRIPTIONS. Every payload is made from the market channels the
 * platform's own socket serves (the matcher's depth and trades, the feed's candles and tickers), read
 * from the same Redis pub/sub and snapshots: no second source. Each payload is built once per update
 * and written to every client of its stream.
 */
export function attachMarketStreams(app: FastifyInstance, deps: AppDeps): { close(): Promise<void> } {
  const prefix = deps.config.redisPrefix;
  const wss = new WebSocketServer({ noServer: true, maxPayload: 16 * 1024 });
  const subscriber: Redis = deps.redis.duplicate();
  subscriber.on("error", (error) => app.log.warn({ err: error }, "market streams: redis subscriber"));
  const sources = new Map<string, Source>();
  const clients = new Set<Client>();

  subscriber.on("message", (redisChannel: string, raw: string) => {
    const source = sources.get(redisChannel);
    if (!source) {
      return;
    }
    const message = JSON.parse(raw) as ChannelMessage;
    if (source.pending) {
      source.pending.push(message);
      return;
    }
    apply(source, message).catch((error) => app.log.warn({ err: error }, "market stream update failed"));
  });

  /** Turns one channel update into each stream's payloads and writes them to the stream's clients. */
  async function apply(source: Source, message: ChannelMessage) {
    const now = Date.now();
    const prior = { book: source.book, seq: source.seq, candle: source.candle };
    if (message.seq <= source.seq) {
      return;
    }
    source.seq = message.seq;
    const specs = [...source.streams.values()].map((s) => s.spec);
    const family = specs[0]?.kind;
    if (!family) {
      return;
    }
    // The streams of one source share its channel: trades, a candle, the tickers or the book.
    if (family === "kline") {
      source.candle = message.data as Candle;
    } else if (family === "depthDiff" || family === "depthPartial" || family === "bookTicker") {
      source.book = message.data as Depth;
    }
    const tops = specs.some((s) => s.kind === "ticker") ? await bookTopsOf(source) : null;
    const spot = specs.some((s) => s.kind === "allMiniTickers") ? await spotMarkets(deps) : null;
    for (const { spec, clients: listeners } of source.streams.values()) {
      if (listeners.size === 0) {
        continue;
      }
      const payloads = payloadsOf(spec, message, prior, now, tops, spot);
      for (const payload of payloads) {
        let bare: string | null = null;
        let wrapped: string | null = null;
        for (const client of listeners) {
          if (client.combined) {
            wrapped ??= JSON.stringify({ stream: spec.name, data: payload });
            write(client, wrapped);
          } else {
            bare ??= JSON.stringify(payload);
            write(client, bare);
          }
        }
      }
    }
  }

  /** The best bid and ask of the ticker streams' symbols, from the depth snapshots. */
  async function bookTopsOf(source: Source) {
    const symbols = [
      ...new Set(
        [...source.streams.values()]
          .filter((s) => s.spec.kind === "ticker")
          .map((s) => s.instrument?.symbol ?? ""),
      ),
    ];
    const raw = await deps.redis.mget(symbols.map((s) => snapshotKey(prefix, channel.depth(s))));
    return new Map(
      symbols.map((s, i) => {
        const r = raw[i];
        return [s, r ? ((JSON.parse(r) as { data: Depth }).data ?? null) : null];
      }),
    );
  }

  function write(client: Client, text: string) {
    if (client.ws?.readyState !== WebSocket.OPEN) {
      return;
    }
    if (client.ws.bufferedAmount > MAX_BUFFERED_BYTES) {
      client.ws.close(1013, "too slow");
      return;
    }
    client.ws.send(text);
  }

  /** The source of a channel, subscribed and primed with its snapshot (the book, the candle). */
  function sourceFor(ch: string): Source {
    const redisChannel = pubsubChannel(prefix, ch);
    let source = sources.get(redisChannel);
    if (source) {
      return source;
    }
    const created: Source = {
      redisChannel,
      streams: new Map(),
      pending: [],
      ready: Promise.resolve(),
      book: null,
      seq: 0,
      candle: null,
    };
    created.ready = (async () => {
      await subscriber.subscribe(redisChannel);
      const raw = await deps.redis.get(snapshotKey(prefix, ch));
      const snapshot = raw ? (JSON.parse(raw) as ChannelMessage) : null;
      if (snapshot) {
        created.seq = snapshot.seq;
        if (ch.startsWith("depth:")) {
          created.book = snapshot.data as Depth;
        } else if (ch.startsWith("kline:")) {
          created.candle = snapshot.data as Candle;
        }
      }
      const queued = created.pending ?? [];
      created.pending = null;
      for (const message of queued) {
        await apply(created, message);
      }
    })();
    created.ready.catch(() => {
      sources.delete(redisChannel);
    });
    sources.set(redisChannel, created);
    source = created;
    return source;
  }

  function release(client: Client, name: string) {
    const source = client.streams.get(name);
    if (!source) {
      return;
    }
    client.streams.delete(name);
    const entry = source.streams.get(name);
    entry?.clients.delete(client);
    if (entry && entry.clients.size === 0) {
      source.streams.delete(name);
    }
    if (source.streams.size === 0) {
      sources.delete(source.redisChannel);
      subscriber.unsubscribe(source.redisChannel).catch(() => {});
    }
  }

  /**
   * Subscribes a client to streams, all or none: an unknown stream or symbol, or too many streams,
   * refuses the whole request and changes nothing.
   */
  async function subscribe(client: Client, names: string[]): Promise<void> {
    const markets = await spotMarkets(deps);
    const resolved: { spec: StreamSpec; instrument: InstrumentView | null }[] = [];
    for (const name of names) {
      const spec = parseStreamName(name);
      // An all-market stream names no symbol.
      const instrument = spec && (spec.symbol === "" ? null : markets.get(spec.symbol));
      if (!spec || instrument === undefined) {
        throw new AppError("API_STREAM_UNKNOWN", { stream: name.slice(0, 64) });
      }
      resolved.push({ spec, instrument });
    }
    const after = new Set([...client.streams.keys(), ...names]);
    if (after.size > MAX_STREAMS_PER_CONNECTION) {
      throw new AppError("API_STREAM_TOO_MANY", { max: MAX_STREAMS_PER_CONNECTION });
    }
    const sourcesToWait: Promise<void>[] = [];
    for (const { spec, instrument } of resolved) {
      if (client.streams.has(spec.name)) {
        continue;
      }
      const source = sourceFor(sourceOf(spec, instrument));
      let entry = source.streams.get(spec.name);
      if (!entry) {
        entry = { spec, instrument, clients: new Set() };
        source.streams.set(spec.name, entry);
      }
      entry.clients.add(client);
      client.streams.set(spec.name, source);
      sourcesToWait.push(source.ready);
    }
    await Promise.all(sourcesToWait);
  }

  function refuse(client: Client, id: unknown, error: unknown) {
    const refusal = toBinanceRefusal(error, client.lang);
    if (client.ws?.readyState === WebSocket.OPEN) {
      client.ws.send(JSON.stringify({ error: { code: 2, msg: refusal.body.msg }, id: idOf(id) }));
    }
  }

  function receive(client: Client, raw: RawData) {
    let request: { method?: unknown; params?: unknown; id?: unknown } | null = null;
    try {
      request = JSON.parse(raw.toString());
    } catch {
      request = null;
    }
    const valid =
      request !== null &&
      typeof request === "object" &&
      (typeof request.id === "number" || typeof request.id === "string") &&
      (request.method === "LIST_SUBSCRIPTIONS" ||
        ((request.method === "SUBSCRIBE" || request.method === "UNSUBSCRIBE") &&
          Array.isArray(request.params) &&
          request.params.length > 0 &&
          request.params.every((p) => typeof p === "string")));
    if (!valid || !request) {
      refuse(client, request?.id, new AppError("API_STREAM_REQUEST_INVALID"));
      return;
    }
    const { method, id } = request;
    const names = (request.params ?? []) as string[];
    const answer = (body: object) => {
      if (client.ws?.readyState === WebSocket.OPEN) {
        client.ws.send(JSON.stringify(body));
      }
    };
    client.queue = client.queue.then(async () => {
      try {
        if (method === "SUBSCRIBE") {
          await subscribe(client, names);
          answer({ result: null, id });
        } else if (method === "UNSUBSCRIBE") {
          for (const name of names) {
            release(client, name);
          }
          answer({ result: null, id });
        } else {
          answer({ result: [...client.streams.keys()], id });
        }
      } catch (error) {
        refuse(client, id, error);
      }
    });
  }

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    const combined = url.pathname === "/stream";
    // `/stream/<n>` is ccxt.pro's: it opens `<its ws address>/<n>` (on Binance `…/ws/<n>`, whose payloads
    // are bare, an array one included) and tells spot from futures by "stream" in the address
    // (docs/bot-api.md). It starts empty, as `/ws/<n>` does.
    const ccxt = /^\/stream\/[A-Za-z0-9]{1,16}$/.test(url.pathname);
    const direct = ccxt || (url.pathname.startsWith("/ws/") && !isListenKeyPath(url.pathname));
    if (!combined && !direct) {
      return;
    }
    let names: string[] = [];
    if (combined) {
      names = (url.searchParams.get("streams") ?? "").split("/").filter((n) => n !== "");
    } else if (!ccxt) {
      // `/ws/btcusdt@trade/ethusdt@trade`; a path without a stream (`/ws/0`, as ccxt opens it) starts empty.
      const rest = decodeURIComponent(url.pathname.slice(4));
      names = rest.includes("@") ? rest.split("/").filter((n) => n !== "") : [];
    }
    const lang = toLanguage(url.searchParams.get("lang") ?? req.headers.lang);
    const client: Client = { ws: null, combined, lang, streams: new Map(), queue: Promise.resolve() };
    subscribe(client, names)
      .then(() => {
        wss.handleUpgrade(req, socket, head, (ws) => {
          client.ws = ws;
          clients.add(client);
          ws.on("message", (raw) => receive(client, raw));
          ws.on("error", () => ws.terminate());
          ws.on("close", () => {
            clients.delete(client);
            for (const name of [...client.streams.keys()]) {
              release(client, name);
            }
          });
        });
      })
      .catch((error) => {
        for (const name of [...client.streams.keys()]) {
          release(client, name);
        }
        const refusal = toBinanceRefusal(error, lang);
        const body = JSON.stringify({ code: refusal.body.code, msg: refusal.body.msg });
        socket.end(
          `HTTP/1.1 400 Bad Request\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
        );
      });
  };
  app.server.on("upgrade", onUpgrade);
  return {
    async close() {
      app.server.off("upgrade", onUpgrade);
      for (const client of clients) {
        client.ws?.terminate();
      }
      wss.close();
      subscriber.disconnect();
    },
  };
}

/** A user-data stream's path: `/ws/<listenKey>` (binance/user-stream.ts). */
export const isListenKeyPath = (path: string) => /^\/ws\/[A-Za-z0-9]{60,64}$/.test(path);

const idOf = (id: unknown) => (typeof id === "number" || typeof id === "string" ? id : null);

const levels = (rows: [string, string][]) => rows.map(([p, q]) => [p, q] as [string, string]);

/** The changed levels between two books, a removed level with quantity 0, best first. */
function diffSide(before: [string, string][], after: [string, string][], bids: boolean) {
  const old = new Map(before);
  const now = new Map(after);
  const changed: [string, string][] = [];
  for (const [price, qty] of after) {
    if (old.get(price) !== qty) {
      changed.push([price, qty]);
    }
  }
  for (const [price] of before) {
    if (!now.has(price)) {
      changed.push([price, "0"]);
    }
  }
  return changed.sort((a, b) => {
    const order = new MoneyDecimal(a[0]).comparedTo(b[0]);
    return bids ? -order : order;
  });
}

/** The Binance payloads one channel update makes for one stream (none when nothing it shows changed). */
export function payloadsOf(
  spec: StreamSpec,
  message: ChannelMessage,
  prior: { book: Depth | null; seq: number; candle: Candle | null },
  now: number,
  tops: Map<string, Depth | null> | null,
  /** the spot markets by Binance symbol, for an all-market stream */
  spot: ReadonlyMap<string, unknown> | null = null,
): object[] {
  const s = spec.symbol;
  switch (spec.kind) {
    case "trade":
    case "aggTrade": {
      // The channel lists new trades newest first; Binance sends them in the order they happened. The
      // platform publishes each fill on its own, so an aggregate trade is one fill (a = f = l = its id).
      const trades = [...(message.data as MarketTrade[])].reverse();
      return trades.map((t) => {
        const id = Number(t.id);
        const m = t.side === "sell";
        return spec.kind === "trade"
          ? { e: "trade", E: now, s, t: id, p: t.p, q: t.q, T: t.t, m, M: true }
          : { e: "aggTrade", E: now, s, a: id, p: t.p, q: t.q, f: id, l: id, T: t.t, m, M: true };
      });
    }
    case "depthPartial": {
      const book = message.data as Depth;
      const n = spec.levels ?? 5;
      return [
        {
          lastUpdateId: message.seq,
          bids: levels(book.bids.slice(0, n)),
          asks: levels(book.asks.slice(0, n)),
        },
      ];
    }
    case "depthDiff": {
      const book = message.data as Depth;
      const before = prior.book ?? { bids: [], asks: [] };
      return [
        {
          e: "depthUpdate",
          E: now,
          s,
          // One platform update per event: it covers every sequence number since the last one sent.
          U: prior.seq > 0 ? prior.seq + 1 : message.seq,
          u: message.seq,
          b: diffSide(before.bids, book.bids, true),
          a: diffSide(before.asks, book.asks, false),
        },
      ];
    }
    case "bookTicker": {
      const book = message.data as Depth;
      const top = (d: Depth | null) => [d?.bids[0]?.[0], d?.bids[0]?.[1], d?.asks[0]?.[0], d?.asks[0]?.[1]];
      if (prior.book && top(prior.book).join() === top(book).join()) {
        return [];
      }
      return [
        {
          u: message.seq,
          s,
          b: book.bids[0]?.[0] ?? "0",
          B: book.bids[0]?.[1] ?? "0",
          a: book.asks[0]?.[0] ?? "0",
          A: book.asks[0]?.[1] ?? "0",
        },
      ];
    }
    case "kline": {
      const candle = message.data as Candle;
      const interval = spec.interval ?? "1m";
      const kline = (c: Candle, closed: boolean) => ({
        e: "kline",
        E: now,
        s,
        k: {
          t: c.time,
          T: klineCloseTime(c.time, interval),
          s,
          i: interval,
          f: -1,
          L: -1,
          o: c.open,
          c: c.close,
          h: c.high,
          l: c.low,
          v: c.volume,
          n: 0,
          x: closed,
          q: new MoneyDecimal(c.volume).times(c.close).toFixed(),
          V: "0",
          Q: "0",
          B: "0",
        },
      });
      const out: object[] = [];
      if (prior.candle && prior.candle.time < candle.time) {
        out.push(kline(prior.candle, true));
      }
      out.push(kline(candle, false));
      return out;
    }
    case "ticker":
    case "miniTicker": {
      const out: object[] = [];
      for (const t of message.data as Ticker[]) {
        if (binanceSymbol(t.s) !== s) {
          continue;
        }
        out.push(
          spec.kind === "ticker" ? ticker24hEvent(s, t, tops?.get(t.s) ?? null, now) : miniTicker(s, t, now),
        );
      }
      return out;
    }
    case "allMiniTickers": {
      // One array of every spot market in the update, as Binance sends it; the feed's other
      // instruments (forex, stocks, …) have no spot market here.
      const all = (message.data as Ticker[])
        .filter((t) => spot?.has(binanceSymbol(t.s)))
        .map((t) => miniTicker(binanceSymbol(t.s), t, now));
      return all.length > 0 ? [all] : [];
    }
  }
}

const miniTicker = (s: string, t: Ticker, now: number) => ({
  e: "24hrMiniTicker",
  E: now,
  s,
  c: t.p,
  o: t.o,
  h: t.h,
  l: t.l,
  v: t.v,
  q: t.q,
});

/** A `24hrTicker` event from the platform's ticker and the book's best levels. */
function ticker24hEvent(s: string, t: Ticker, book: Depth | null, now: number) {
  const volume = new MoneyDecimal(t.v);
  return {
    e: "24hrTicker",
    E: now,
    s,
    p: new MoneyDecimal(t.p).minus(t.o).toFixed(),
    P: t.c,
    w: volume.isZero() ? t.p : new MoneyDecimal(t.q).div(volume).toFixed(8),
    x: t.o,
    c: t.p,
    Q: "0",
    b: book?.bids[0]?.[0] ?? "0",
    B: book?.bids[0]?.[1] ?? "0",
    a: book?.asks[0]?.[0] ?? "0",
    A: book?.asks[0]?.[1] ?? "0",
    o: t.o,
    h: t.h,
    l: t.l,
    v: t.v,
    q: t.q,
    O: now - 86_400_000,
    C: t.t,
    F: -1,
    L: -1,
    n: 0,
  };
}
