import { randomBytes } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { findActiveKey } from "@northstar/domain/apikeys";
import { AppError } from "@northstar/domain/errors";
import { getUserById } from "@northstar/domain/identity";
import { bookOf, getUserBalances } from "@northstar/domain/ledger";
import { userEventsChannel } from "@northstar/domain/messages";
import { findOrder } from "@northstar/domain/spot";
import type { TSpotOrderEvent } from "@northstar/shared/contracts/spot";
import { MoneyDecimal } from "@northstar/shared/money";
import type { FastifyInstance } from "fastify";
import type { Redis } from "ioredis";
import { WebSocket, WebSocketServer } from "ws";
import type { AppDeps } from "../http/deps.ts";
import { isListenKeyPath } from "./market-streams.ts";
import { binanceOrder, binanceSymbol } from "./views.ts";

/** A listen key lives 60 minutes after its creation or last keep-alive, as Binance's do. */
const LISTEN_TTL_MS = 60 * 60 * 1000;
const listenKeyOf = (prefix: string, listenKey: string) => `${prefix}:apikey:listen:${listenKey}`;

interface Listener {
  keyId: number;
  userId: number;
}

async function readListenKey(deps: AppDeps, listenKey: string): Promise<Listener | null> {
  if (!/^[A-Za-z0-9]{60,64}$/.test(listenKey)) {
    return null;
  }
  const raw = await deps.redis.get(listenKeyOf(deps.config.redisPrefix, listenKey));
  return raw ? (JSON.parse(raw) as Listener) : null;
}

/**
 * POST/PUT/DELETE /api/v3/userDataStream: a listen key for the key's owner (the API key header only,
 * as Binance's USER_STREAM calls). The socket at /ws/<listenKey> then sends the owner's
 * `executionReport` and `outboundAccountPosition` events.
 */
export function registerUserDataStreamRoutes(api: FastifyInstance, deps: AppDeps): void {
  const keyOf = async (header: unknown) =>
    findActiveKey(deps.db, typeof header === "string" ? header : undefined);
  api.post("/api/v3/userDataStream", async (request) => {
    const { key, user } = await keyOf(request.headers["x-mbx-apikey"]);
    const listenKey = randomBytes(48).toString("base64url").replace(/[-_]/g, "L").slice(0, 60);
    const value: Listener = { keyId: key.id, userId: user.id };
    await deps.redis.set(
      listenKeyOf(deps.config.redisPrefix, listenKey),
      JSON.stringify(value),
      "PX",
      LISTEN_TTL_MS,
    );
    return { listenKey };
  });
  const ownListenKey = async (request: {
    headers: Record<string, unknown>;
    query: unknown;
    body: unknown;
  }) => {
    const { key } = await keyOf(request.headers["x-mbx-apikey"]);
    const params = new URLSearchParams(typeof request.body === "string" ? request.body : "");
    const listenKey = params.get("listenKey") ?? (request.query as Record<string, string>).listenKey ?? "";
    const listener = await readListenKey(deps, listenKey);
    if (!listener || listener.keyId !== key.id) {
      throw new AppError("API_LISTEN_KEY_UNKNOWN");
    }
    return listenKey;
  };
  api.put("/api/v3/userDataStream", async (request) => {
    const listenKey = await ownListenKey(request);
    await deps.redis.pexpire(listenKeyOf(deps.config.redisPrefix, listenKey), LISTEN_TTL_MS);
    return {};
  });
  api.delete("/api/v3/userDataStream", async (request) => {
    const listenKey = await ownListenKey(request);
    await deps.redis.del(listenKeyOf(deps.config.redisPrefix, listenKey));
    return {};
  });
}

/**
 * The user-data socket: `/ws/<listenKey>` on the API's port. One Redis subscriber per process takes
 * each owner's events (the same `user` channel the web's socket reads) and turns spot order events
 * into `executionReport`, balance events into `outboundAccountPosition`.
 */
export function attachUserDataSocket(app: FastifyInstance, deps: AppDeps): { close(): Promise<void> } {
  const wss = new WebSocketServer({ noServer: true, maxPayload: 4096 });
  const subscriber: Redis = deps.redis.duplicate();
  const sockets = new Map<string, Set<Client>>();

  interface Client {
    ws: WebSocket;
    listener: Listener;
    /** Filled quantity and quote last reported per order, for the last fill's figures. */
    reported: Map<number, { qty: string; quote: string }>;
  }

  subscriber.on("message", (channel: string, message: string) => {
    const clients = sockets.get(channel);
    if (!clients) {
      return;
    }
    const event = (JSON.parse(message) as { data?: { type?: string } }).data;
    for (const client of clients) {
      void forward(client, event).catch((error) =>
        app.log.warn({ err: error }, "user data stream event failed"),
      );
    }
  });

  async function forward(client: Client, event: { type?: string } | undefined) {
    const now = Date.now();
    if (event?.type === "spot.order") {
      const view = (event as TSpotOrderEvent).order;
      const row = await findOrder(deps.db, client.listener.userId, { id: view.id });
      if (!row) {
        return;
      }
      const order = binanceOrder(row, binanceSymbol(row.symbol));
      const before = client.reported.get(row.id) ?? { qty: "0", quote: "0" };
      const lastQty = new MoneyDecimal(order.executedQty).minus(before.qty);
      const lastQuote = new MoneyDecimal(order.cummulativeQuoteQty).minus(before.quote);
      client.reported.set(row.id, { qty: order.executedQty, quote: order.cummulativeQuoteQty });
      // A fill is a TRADE; otherwise the execution is the state the order reached (NEW, CANCELED…).
      const execution = lastQty.gt(0) ? "TRADE" : order.status === "PARTIALLY_FILLED" ? "NEW" : order.status;
      send(client, {
        e: "executionReport",
        E: now,
        s: order.symbol,
        c: order.clientOrderId,
        S: order.side,
        o: order.type,
        f: order.timeInForce,
        q: order.origQty,
        p: order.price,
        P: "0",
        F: "0",
        g: -1,
        C: "",
        x: execution,
        X: order.status,
        r: "NONE",
        i: order.orderId,
        l: lastQty.toFixed(),
        z: order.executedQty,
        L: lastQty.gt(0) ? lastQuote.div(lastQty).toFixed() : "0",
        n: "0",
        N: null,
        T: order.updateTime,
        t: -1,
        w: order.isWorking,
        m: false,
        O: order.time,
        Z: order.cummulativeQuoteQty,
        Y: lastQuote.toFixed(),
        Q: order.origQuoteOrderQty,
      });
    } else if (event?.type === "balance") {
      const user = await getUserById(deps.db, client.listener.userId);
      const balances = (await getUserBalances(deps.db, user.id, bookOf(user))).filter(
        (b) => b.wallet === "exchange",
      );
      send(client, {
        e: "outboundAccountPosition",
        E: now,
        u: now,
        B: balances.map((b) => ({
          a: b.currency,
          f: new MoneyDecimal(b.available).toFixed(),
          l: new MoneyDecimal(b.held).toFixed(),
        })),
      });
    }
  }

  function send(client: Client, data: unknown) {
    if (client.ws.readyState === WebSocket.OPEN) {
      client.ws.send(JSON.stringify(data));
    }
  }

  async function connect(ws: WebSocket, listener: Listener) {
    const channel = userEventsChannel(deps.config.redisPrefix, listener.userId);
    const client: Client = { ws, listener, reported: new Map() };
    let set = sockets.get(channel);
    if (!set) {
      set = new Set();
      sockets.set(channel, set);
      await subscriber.subscribe(channel);
    }
    set.add(client);
    ws.on("close", () => {
      set.delete(client);
      if (set.size === 0) {
        sockets.delete(channel);
        subscriber.unsubscribe(channel).catch(() => {});
      }
    });
    // Binance's sockets answer pings; ws does that itself. A client message is not expected.
    ws.on("message", () => {});
    ws.send(JSON.stringify({ result: null, id: 0 }));
  }

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = (req.url ?? "").split("?")[0] ?? "";
    // Other `/ws/…` paths are the public market streams (binance/market-streams.ts).
    if (!isListenKeyPath(path)) {
      return;
    }
    readListenKey(deps, path.slice(4))
      .then((listener) => {
        if (!listener) {
          socket.end("HTTP/1.1 401 Unauthorized\r\nConnection: close\r\n\r\n");
          return;
        }
        wss.handleUpgrade(req, socket, head, (ws) => void connect(ws, listener));
      })
      .catch(() => socket.destroy());
  };
  app.server.on("upgrade", onUpgrade);
  return {
    async close() {
      app.server.off("upgrade", onUpgrade);
      for (const client of wss.clients) {
        client.terminate();
      }
      wss.close();
      subscriber.disconnect();
    },
  };
}
