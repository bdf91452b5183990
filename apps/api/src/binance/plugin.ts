import { randomBytes } from "node:crypto";
import { ApiKeyCache, type KeyAuthenticated, verifySignedRequest } from "@northstar/domain/apikeys";
import { AppError } from "@northstar/domain/errors";
import { requestHash } from "@northstar/domain/idempotency";
import { bookOf, getUserBalances } from "@northstar/domain/ledger";
import { getPolicies } from "@northstar/domain/policy";
import {
  cancelOrder,
  findOrder,
  listFillRows,
  listOrderRows,
  placeOrder,
  type SpotDeps,
  type SpotOrderRow,
} from "@northstar/domain/spot";
import type { TApiKeyPermission } from "@northstar/shared/contracts/apikeys";
import { type TPlaceOrderRequest, ZPlaceOrderRequestSchema } from "@northstar/shared/contracts/spot";
import { toLanguage } from "@northstar/shared/languages";
import { MoneyDecimal } from "@northstar/shared/money";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { z } from "zod";
import type { AppDeps } from "../http/deps.ts";
import { clientIp } from "../http/request.ts";
import { toBinanceRefusal } from "./errors.ts";
import {
  bookTickers,
  depthOf,
  exchangeInfo,
  klinesOf,
  marketOf,
  ticker24h,
  tickerMarkets,
  tickerPrices,
  tradesOf,
} from "./market.ts";
import { openApiDocument, referencePage } from "./reference.ts";
import {
  ZAccountParams,
  ZAllOrdersParams,
  ZDepthParams,
  ZKlinesParams,
  ZMyTradesParams,
  ZNewOrderParams,
  ZOpenOrdersParams,
  ZOrderRefParams,
  ZTickerParams,
  ZTradesParams,
} from "./schemas.ts";
import { registerUserDataStreamRoutes } from "./user-stream.ts";
import { binanceOrder, binanceOrderFromView, binanceSymbol } from "./views.ts";

/** The raw query string of a request, as the client sent and signed it. */
const rawQuery = (request: FastifyRequest) => {
  const at = request.url.indexOf("?");
  return at < 0 ? "" : request.url.slice(at + 1);
};
const rawBody = (request: FastifyRequest) => (typeof request.body === "string" ? request.body : "");

/** The request's parameters: the query string's, then the form body's (the first of a name wins). */
function paramsOf(request: FastifyRequest): Record<string, string> {
  const params: Record<string, string> = {};
  for (const source of [rawQuery(request), rawBody(request)]) {
    for (const [name, value] of new URLSearchParams(source)) {
      if (!(name in params)) {
        params[name] = value;
      }
    }
  }
  return params;
}

/** A raw `a=1&b=2` string without its `signature` pair, every other byte as sent. */
const withoutSignature = (raw: string) =>
  raw
    .split("&")
    .filter((pair) => pair !== "" && !pair.startsWith("signature="))
    .join("&");

function parse<S extends z.ZodType>(schema: S, params: Record<string, string>): z.output<S> {
  return schema.parse(params) as z.output<S>;
}

/**
 * The Binance-compatible spot subset under /api/v3 (see docs/bot-api.md): a thin layer over the same
 * domain services the tRPC spot and market routers call. Refusals answer in Binance's `{code, msg}`.
 */
export async function registerBinanceApi(app: FastifyInstance, deps: AppDeps): Promise<void> {
  await app.register(async (api) => {
    // The signature covers the form body byte for byte: keep it as sent, parse it here.
    api.removeContentTypeParser("application/x-www-form-urlencoded");
    api.addContentTypeParser("application/x-www-form-urlencoded", { parseAs: "string" }, (_req, body, done) =>
      done(null, body),
    );
    api.setErrorHandler((error, request, reply) => {
      const refusal = toBinanceRefusal(error, toLanguage(request.headers.lang));
      if (refusal.status >= 500) {
        request.log.error({ err: error }, "request failed");
      }
      if (refusal.retryAfter !== undefined) {
        reply.header("retry-after", String(refusal.retryAfter));
      }
      return reply.status(refusal.status).send(refusal.body);
    });

    const spotDeps: SpotDeps = { db: deps.db, redis: deps.redis, prefix: deps.config.redisPrefix };
    // This instance's keys and opened secrets (see ApiKeyCache): no database read per signed request.
    const cache = new ApiKeyCache();
    const signed = (request: FastifyRequest, permission: TApiKeyPermission, order = false) => {
      const params = paramsOf(request);
      const header = request.headers["x-mbx-apikey"];
      return verifySignedRequest(
        {
          db: deps.db,
          redis: deps.redis,
          prefix: deps.config.redisPrefix,
          cache,
          ...(deps.clock ? { now: deps.clock } : {}),
        },
        {
          apiKey: typeof header === "string" ? header : undefined,
          payload: withoutSignature(rawQuery(request)) + withoutSignature(rawBody(request)),
          signature: params.signature,
          timestamp: params.timestamp,
          recvWindow: params.recvWindow,
          ip: clientIp(request),
          permission,
          order,
        },
      ).then((auth) => ({ auth, params }));
    };

    // The reference: the OpenAPI document and a readable page rendered from it.
    const document = JSON.stringify(openApiDocument());
    const page = referencePage();
    api.get("/api/docs/openapi.json", async (_request, reply) =>
      reply.type("application/json").send(document),
    );
    api.get("/api/docs", async (_request, reply) => reply.type("text/html; charset=utf-8").send(page));

    // Public market data.
    api.get("/api/v3/ping", async () => ({}));
    api.get("/api/v3/time", async () => ({ serverTime: deps.clock?.() ?? Date.now() }));
    api.get("/api/v3/exchangeInfo", async (request) => {
      const params = parse(ZTickerParams, paramsOf(request));
      const only = params.symbol ? [params.symbol] : params.symbols;
      return exchangeInfo(deps, only);
    });
    api.get("/api/v3/depth", async (request) => {
      const params = parse(ZDepthParams, paramsOf(request));
      return depthOf(deps, await marketOf(deps, params.symbol), params.limit);
    });
    api.get("/api/v3/trades", async (request) => {
      const params = parse(ZTradesParams, paramsOf(request));
      return tradesOf(deps, await marketOf(deps, params.symbol), params.limit);
    });
    api.get("/api/v3/klines", async (request) => {
      const params = parse(ZKlinesParams, paramsOf(request));
      return klinesOf(deps, await marketOf(deps, params.symbol), params);
    });
    const tickerRoute = (path: string, answer: typeof ticker24h) =>
      api.get(path, async (request) => {
        const params = parse(ZTickerParams, paramsOf(request));
        const rows = await answer(deps, await tickerMarkets(deps, params));
        return params.symbol ? rows[0] : rows;
      });
    tickerRoute("/api/v3/ticker/24hr", ticker24h);
    tickerRoute("/api/v3/ticker/price", tickerPrices as unknown as typeof ticker24h);
    tickerRoute("/api/v3/ticker/bookTicker", bookTickers as unknown as typeof ticker24h);

    // The account.
    api.get("/api/v3/account", async (request) => {
      const { auth, params } = await signed(request, "read");
      const { omitZeroBalances } = parse(ZAccountParams, params);
      return accountOf(deps, auth, omitZeroBalances === "true");
    });

    // Orders.
    api.post("/api/v3/order", async (request) => {
      const { auth, params } = await signed(request, "spot_trade", true);
      const order = parse(ZNewOrderParams, params);
      const instrument = await marketOf(deps, order.symbol);
      const input = toPlaceOrder(order, instrument.symbol);
      const clientOrderId =
        order.newClientOrderId ?? `ns${randomBytes(12).toString("base64url").replace(/[-_]/g, "x")}`;
      const placed = await placeOrder(
        spotDeps,
        auth.user,
        input,
        { clientKey: clientOrderId, requestHash: requestHash("binance.order", input) },
        "api_key",
      );
      const view = binanceOrderFromView(placed, order.symbol, clientOrderId);
      if (order.newOrderRespType === "ACK") {
        return {
          symbol: view.symbol,
          orderId: view.orderId,
          orderListId: -1,
          clientOrderId: view.clientOrderId,
          transactTime: view.time,
        };
      }
      return { ...view, transactTime: view.time, fills: [] };
    });
    api.get("/api/v3/order", async (request) => {
      const { auth, params } = await signed(request, "read");
      const ref = parse(ZOrderRefParams, params);
      const row = await orderByRef(deps, auth, ref);
      return binanceOrder(row, ref.symbol);
    });
    api.delete("/api/v3/order", async (request) => {
      const { auth, params } = await signed(request, "spot_trade");
      const ref = parse(ZOrderRefParams, params);
      const row = await orderByRef(deps, auth, ref);
      // The matcher applies the cancel in order after the order's own placing: the answer is the
      // order as it stands; its final state follows in GET /api/v3/order.
      await cancelOrder(spotDeps, auth.user, row.id);
      return { origClientOrderId: row.clientKey ?? `ns-${row.id}`, ...binanceOrder(row, ref.symbol) };
    });
    api.get("/api/v3/openOrders", async (request) => {
      const { auth, params } = await signed(request, "read");
      const { symbol } = parse(ZOpenOrdersParams, params);
      const instrument = symbol ? await marketOf(deps, symbol) : undefined;
      const rows = await listOrderRows(deps.db, auth.user.id, {
        symbol: instrument?.symbol,
        open: true,
        fromId: 1,
        limit: 1000,
      });
      return rows.map((row) => binanceOrder(row, binanceSymbol(row.symbol)));
    });
    api.get("/api/v3/allOrders", async (request) => {
      const { auth, params } = await signed(request, "read");
      const query = parse(ZAllOrdersParams, params);
      const instrument = await marketOf(deps, query.symbol);
      const rows = await listOrderRows(deps.db, auth.user.id, {
        symbol: instrument.symbol,
        fromId: query.orderId,
        startTime: query.startTime === undefined ? undefined : new Date(query.startTime),
        endTime: query.endTime === undefined ? undefined : new Date(query.endTime),
        limit: query.limit,
      });
      return rows.map((row) => binanceOrder(row, query.symbol));
    });
    api.get("/api/v3/myTrades", async (request) => {
      const { auth, params } = await signed(request, "read");
      const query = parse(ZMyTradesParams, params);
      const instrument = await marketOf(deps, query.symbol);
      const fills = await listFillRows(deps.db, auth.user.id, {
        symbol: instrument.symbol,
        orderId: query.orderId,
        fromId: query.fromId,
        startTime: query.startTime === undefined ? undefined : new Date(query.startTime),
        endTime: query.endTime === undefined ? undefined : new Date(query.endTime),
        limit: query.limit,
      });
      return fills.map((f) => ({
        symbol: query.symbol,
        id: f.id,
        orderId: f.orderId,
        orderListId: -1,
        price: f.price,
        qty: f.quantity,
        quoteQty: f.quoteQty,
        commission: f.fee,
        commissionAsset: f.feeCurrency,
        time: f.time,
        isBuyer: f.side === "buy",
        isMaker: f.role === "maker",
        isBestMatch: true,
      }));
    });
    registerUserDataStreamRoutes(api, deps);
    // Unknown paths under /api/v3 answer Binance's shape too.
    api.all("/api/v3/*", async (_request, reply: FastifyReply) =>
      reply.status(404).send({ code: -1000, msg: "Unknown endpoint." }),
    );
  });
}

/**
 * A Binance order's parameters as our order contract: LIMIT (GTC or IOC), LIMIT_MAKER (post-only),
 * MARKET by quantity or by quoteOrderQty (buys). FOK and the stop types are refused: the engine has
 * neither. The result goes through the same zod contract as the trade screen's orders.
 */
function toPlaceOrder(order: z.output<typeof ZNewOrderParams>, symbol: string): TPlaceOrderRequest {
  const side = order.side === "BUY" ? "buy" : "sell";
  const base = { symbol, side };
  if (order.type === "LIMIT" || order.type === "LIMIT_MAKER") {
    let tif: "gtc" | "ioc" | "post_only" = "gtc";
    if (order.type === "LIMIT_MAKER") {
      tif = "post_only";
    } else if (order.timeInForce === "IOC") {
      tif = "ioc";
    } else if (order.timeInForce !== undefined && order.timeInForce !== "GTC") {
      throw new AppError("API_ORDER_TYPE_UNSUPPORTED", {}, "timeInForce");
    }
    return ZPlaceOrderRequestSchema.parse({
      ...base,
      type: "limit",
      time_in_force: tif,
      price: order.price,
      quantity: order.quantity,
    });
  }
  if (order.type === "MARKET") {
    if (order.quoteOrderQty !== undefined && (side === "sell" || order.quantity !== undefined)) {
      throw new AppError("API_ORDER_TYPE_UNSUPPORTED", {}, "type");
    }
    return ZPlaceOrderRequestSchema.parse({
      ...base,
      type: "market",
      ...(order.quantity === undefined ? {} : { quantity: order.quantity }),
      ...(order.quoteOrderQty === undefined ? {} : { quote_amount: order.quoteOrderQty }),
    });
  }
  throw new AppError("API_ORDER_TYPE_UNSUPPORTED", {}, "type");
}

async function orderByRef(
  deps: AppDeps,
  auth: KeyAuthenticated,
  ref: { symbol: string; orderId?: number | undefined; origClientOrderId?: string | undefined },
): Promise<SpotOrderRow> {
  const instrument = await marketOf(deps, ref.symbol);
  let row: SpotOrderRow | null = null;
  if (ref.orderId !== undefined) {
    row = await findOrder(deps.db, auth.user.id, { id: ref.orderId, symbol: instrument.symbol });
  } else if (ref.origClientOrderId !== undefined) {
    row = await findOrder(deps.db, auth.user.id, {
      clientKey: ref.origClientOrderId,
      symbol: instrument.symbol,
    });
  } else {
    throw new AppError("FIELD_REQUIRED", {}, "orderId");
  }
  if (!row) {
    throw new AppError("ORDER_NOT_FOUND");
  }
  return row;
}

/** /api/v3/account: the exchange wallet of the key owner's book (a demo account's is its demo book). */
async function accountOf(deps: AppDeps, auth: KeyAuthenticated, omitZero: boolean) {
  const [balances, [maker, taker]] = await Promise.all([
    getUserBalances(deps.db, auth.user.id, bookOf(auth.user)),
    getPolicies(deps.db, ["spot.fee.maker", "spot.fee.taker"] as const),
  ]);
  const rows = balances
    .filter((b) => b.wallet === "exchange")
    .map((b) => ({
      asset: b.currency,
      free: new MoneyDecimal(b.available).toFixed(),
      locked: new MoneyDecimal(b.held).toFixed(),
    }))
    .filter((b) => !omitZero || !new MoneyDecimal(b.free).plus(b.locked).isZero());
  // Binance gives commissions in hundredths of a percent as integers, and as rates.
  const bps = (rate: string) => new MoneyDecimal(rate).times(10_000).toDecimalPlaces(0).toNumber();
  return {
    makerCommission: bps(maker),
    takerCommission: bps(taker),
    buyerCommission: 0,
    sellerCommission: 0,
    commissionRates: { maker, taker, buyer: "0", seller: "0" },
    canTrade: auth.key.permissions.includes("spot_trade"),
    canWithdraw: false,
    canDeposit: false,
    brokered: false,
    requireSelfTradePrevention: false,
    preventSor: false,
    updateTime: Date.now(),
    accountType: "SPOT",
    balances: rows,
    permissions: ["SPOT"],
    uid: auth.user.id,
  };
}
