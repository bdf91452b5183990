import { z } from "zod";
import {
  ZAccountParams,
  ZAllOrdersParams,
  ZDepthParams,
  ZKlinesParams,
  ZMyTradesParams,
  ZNewOrderParams,
  ZOpenOrdersParams,
  ZOrderRefParams,
  ZSignedParams,
  ZTickerParams,
  ZTradesParams,
} from "./schemas.ts";

/**
 * The reference of the bot API: an OpenAPI 3.1 document generated from the same zod schemas the
 * routes parse with (zod's own JSON Schema output), and a readable page rendered from it. The worked
 * example's signature is checked by a test (reference.test.ts), so it cannot drift.
 */
export const WORKED_EXAMPLE = {
  secret: "nSk7Q2vXb9LmT4rWc8YpE1uHj6DfG3aZ0oKiRs5VtNwMxBqCeAyPlUdJhIgOzF2e",
  query:
    "symbol=BTCUSDT&side=BUY&type=LIMIT&timeInForce=GTC&quantity=0.01&price=60000&newClientOrderId=bot-42&recvWindow=5000&timestamp=1767225600000",
  signature: "5b56caec1dd85e7e924dd9a2ac28e70c4363093b2159a308243352394f0001f6",
};

export const SIGNING_RULES = [
  "Send the key in the `X-MBX-APIKEY` header.",
  "Add `timestamp` (ms since the epoch) and optionally `recvWindow` (ms, default 5000, at most the policy `apikeys.maxRecvWindowMs`, 60000 by default). The server refuses a timestamp more than 1 s ahead of its clock or older than `recvWindow` (-1021).",
  "`signature` is the hex HMAC-SHA256, keyed with the secret, of the query string exactly as sent followed directly by the form body exactly as sent (`application/x-www-form-urlencoded`), without the `signature` pair itself. GET and DELETE send everything in the query string; POST may send it in the body. A wrong signature is -1022.",
  "Each signature is accepted once: the same signed request sent again within its window is refused as a replay (-1022) and changes nothing.",
  "A missing, unknown, disabled, blocked or deleted key, a key used from an address outside its allow-list, and a key without the permission the call needs (`read`, or `spot_trade` for placing and cancelling) are refused with -2015 (HTTP 401). No key ever allows a withdrawal.",
  "Each key may make `apikeys.requestsPerSecond` signed requests and place `apikeys.ordersPerSecond` orders a second (policy); beyond it the answer is HTTP 429 with -1003 or -1015 and a `Retry-After` header in seconds.",
  "Orders signed with a key need no trade password: the key is the factor. A demo account's key trades its demo book.",
  'Every refusal is Binance\'s `{ "code": …, "msg": … }`; `msg` is in the language of the `lang` header (en by default). Nothing is changed by a refused request.',
];

export const DIFFERENCES = [
  "Order types: LIMIT (GTC or IOC), LIMIT_MAKER (post-only: an order that would take is ended EXPIRED by the engine) and MARKET (by `quantity`, or a BUY by `quoteOrderQty`). FOK (-1115) and the STOP_LOSS/TAKE_PROFIT types (-1116) are refused: the engine has no fill-or-kill and no stop orders.",
  "The engine matches asynchronously: a new order answers NEW with no fills, and a cancel answers the order as it stands; the final state follows in GET /api/v3/order, openOrders and allOrders. `newOrderRespType` FULL answers like RESULT.",
  "`newClientOrderId` makes placing idempotent: a resend with the same id and the same parameters answers the first order; the same id with other parameters is refused (-2010). Without one, the server makes one.",
  "A market BUY by `quantity` is held at the best ask raised by the policy `spot.marketProtection` and does not pay more than that (the rest expires).",
  "Filters: PRICE_FILTER, LOT_SIZE and MARKET_LOT_SIZE come from the catalogue's tick size, lot size and minimum quantity; NOTIONAL's minimum is one tick times one lot; maxPrice/maxQty/maxNotional 0 means no limit.",
  "klines are the stored candles (the forming candle is not in them); their trade counts and taker volumes are 0. trades lists the latest prints the matcher published.",
  "Symbols are the catalogue's spot markets in Binance's form (letters and digits, e.g. BTCUSDT).",
];

/** The public market streams (binance/market-streams.ts): each example name is parsed by a test. */
export const MARKET_STREAMS: { name: string; payload: string }[] = [
  {
    name: "btcusdt@trade",
    payload:
      '`{e:"trade", E, s, t, p, q, T, m, M}`: one event per fill of the real book, in the order they happened; `m` is true when the buyer was the maker.',
  },
  {
    name: "btcusdt@aggTrade",
    payload:
      '`{e:"aggTrade", E, s, a, p, q, f, l, T, m, M}`: the same fills as `@trade`, each an aggregate of one (`a`, `f` and `l` are the trade\'s id): the matcher publishes every fill on its own.',
  },
  {
    name: "btcusdt@depth",
    payload:
      "`{e:\"depthUpdate\", E, s, U, u, b, a}`: the levels that changed since the previous event, a removed level with quantity 0. `U` is the previous event's `u` plus one, so a gap shows; `GET /api/v3/depth`'s `lastUpdateId` is on the same sequence, and Binance's way of keeping a local book (buffer, snapshot, drop events with `u` ≤ `lastUpdateId`) works unchanged. `@depth@100ms` and `@depth@1000ms` are the same stream: an event follows each matcher batch that changed the book.",
  },
  {
    name: "btcusdt@depth5",
    payload:
      "`{lastUpdateId, bids, asks}`: the best 5, 10 or 20 levels (`@depth5`, `@depth10`, `@depth20`, with or without `@100ms`) after each change.",
  },
  {
    name: "btcusdt@kline_1m",
    payload:
      '`{e:"kline", E, s, k:{t, T, s, i, f, L, o, c, h, l, v, n, x, q, V, Q, B}}`: the forming candle when it changes; when the next one starts the previous is sent once more with `x: true`. Intervals 1m 5m 15m 1h 4h 1d 1w 1M; trade counts, taker volumes and trade ids are 0 or -1.',
  },
  {
    name: "btcusdt@ticker",
    payload:
      '`{e:"24hrTicker", E, s, p, P, w, x, c, Q, b, B, a, A, o, h, l, v, q, O, C, F, L, n}`: the rolling 24-hour figures, once a second while they change, with the book\'s best levels.',
  },
  {
    name: "btcusdt@miniTicker",
    payload:
      '`{e:"24hrMiniTicker", E, s, c, o, h, l, v, q}`: the rolling 24-hour figures of `@ticker` without the book (ccxt.pro\'s `watchTickers` with symbols).',
  },
  {
    name: "!miniTicker@arr",
    payload:
      "An array of `24hrMiniTicker` events, one per spot market in the feed's update (ccxt.pro's `watchTickers` without symbols).",
  },
  {
    name: "btcusdt@bookTicker",
    payload: "`{u, s, b, B, a, A}`: the best bid and ask with their quantities, when either changes.",
  },
];

export const STREAM_RULES = [
  "`/ws/<stream>` (several joined by `/`) sends each payload as it is; `/stream?streams=<stream>/<stream>` wraps each as `{stream, data}`. Stream names are Binance's: the symbol in lower case, then the stream.",
  'On either, `{"method":"SUBSCRIBE","params":[…],"id":1}` adds streams, `UNSUBSCRIBE` removes them, `LIST_SUBSCRIPTIONS` lists them; each is answered `{result, id}`. A request naming an unknown stream or symbol, or going over 200 streams, is refused as a whole (`{error:{code:2, msg}, id}`, `msg` in the language of the address\'s `lang` parameter) and changes nothing; an unknown stream in the address refuses the connection (HTTP 400, `{code, msg}`).',
  "ccxt.pro's `binance` class works with `urls.api.ws.spot` set to `ws(s)://<host>/stream` (it opens `/stream/<n>`, which sends bare payloads as Binance's `/ws/<n>` does, and sends SUBSCRIBE; ccxt tells a spot address by `stream` in it) and `await exchange.loadHttpProxyAgent()` before a plain `ws://` address.",
  "The streams are made from the platform's own market channels (the matcher's book and trades, the feed's candles and tickers), the same the web's market socket serves: they show what the trade screen shows.",
];

interface Endpoint {
  method: "get" | "post" | "delete";
  path: string;
  summary: string;
  params?: z.ZodObject;
  /** The permission a signed call needs; none for public market data. */
  signed?: "read" | "spot_trade";
}

export const ENDPOINTS: Endpoint[] = [
  { method: "get", path: "/api/v3/ping", summary: "Test connectivity." },
  { method: "get", path: "/api/v3/time", summary: "The server's clock: `{ serverTime }` in ms." },
  {
    method: "get",
    path: "/api/v3/exchangeInfo",
    summary: "The spot markets with their filters.",
    params: ZTickerParams,
  },
  { method: "get", path: "/api/v3/depth", summary: "The order book.", params: ZDepthParams },
  { method: "get", path: "/api/v3/trades", summary: "Recent public trades.", params: ZTradesParams },
  { method: "get", path: "/api/v3/klines", summary: "Candles.", params: ZKlinesParams },
  { method: "get", path: "/api/v3/ticker/24hr", summary: "24-hour statistics.", params: ZTickerParams },
  { method: "get", path: "/api/v3/ticker/price", summary: "Latest prices.", params: ZTickerParams },
  { method: "get", path: "/api/v3/ticker/bookTicker", summary: "Best bid and ask.", params: ZTickerParams },
  {
    method: "get",
    path: "/api/v3/account",
    summary: "Balances of the exchange wallet.",
    params: ZAccountParams,
    signed: "read",
  },
  {
    method: "post",
    path: "/api/v3/order",
    summary: "Place an order.",
    params: ZNewOrderParams,
    signed: "spot_trade",
  },
  {
    method: "get",
    path: "/api/v3/order",
    summary: "One order, by orderId or origClientOrderId.",
    params: ZOrderRefParams,
    signed: "read",
  },
  {
    method: "delete",
    path: "/api/v3/order",
    summary: "Cancel an order.",
    params: ZOrderRefParams,
    signed: "spot_trade",
  },
  {
    method: "get",
    path: "/api/v3/openOrders",
    summary: "Orders that may still trade.",
    params: ZOpenOrdersParams,
    signed: "read",
  },
  {
    method: "get",
    path: "/api/v3/allOrders",
    summary: "Orders of a market.",
    params: ZAllOrdersParams,
    signed: "read",
  },
  {
    method: "get",
    path: "/api/v3/myTrades",
    summary: "The account's fills in a market.",
    params: ZMyTradesParams,
    signed: "read",
  },
];

type JsonSchema = { properties?: Record<string, Record<string, unknown>>; required?: string[] };

function parametersOf(schema: z.ZodObject | undefined) {
  if (!schema) {
    return [];
  }
  const json = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as JsonSchema;
  return Object.entries(json.properties ?? {}).map(([name, property]) => {
    const { description, ...rest } = property;
    return {
      name,
      in: "query",
      required: (json.required ?? []).includes(name),
      ...(typeof description === "string" ? { description } : {}),
      schema: rest,
    };
  });
}

const ERROR_SCHEMA = {
  type: "object",
  required: ["code", "msg"],
  properties: { code: { type: "integer", examples: [-1022] }, msg: { type: "string" } },
};

/** The OpenAPI document served at /api/docs/openapi.json. */
export function openApiDocument() {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const endpoint of ENDPOINTS) {
    const parameters = [
      ...parametersOf(endpoint.params),
      ...(endpoint.signed ? parametersOf(ZSignedParams) : []),
    ];
    paths[endpoint.path] ??= {};
    (paths[endpoint.path] as Record<string, unknown>)[endpoint.method] = {
      summary: endpoint.summary,
      ...(endpoint.signed
        ? {
            security: [{ apiKey: [] }],
            description: `Signed; the key needs the \`${endpoint.signed}\` permission.`,
          }
        : {}),
      parameters,
      responses: {
        "200": { description: "Binance's answer shape for this call." },
        "400": { description: "A refusal.", content: { "application/json": { schema: ERROR_SCHEMA } } },
        ...(endpoint.signed
          ? {
              "401": {
                description: "Key refused (-2015).",
                content: { "application/json": { schema: ERROR_SCHEMA } },
              },
              "429": {
                description: "Over the key's limit (-1003, -1015); see Retry-After.",
                headers: { "Retry-After": { schema: { type: "integer" } } },
                content: { "application/json": { schema: ERROR_SCHEMA } },
              },
            }
          : {}),
      },
    };
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Northstar bot API (Binance-compatible spot subset)",
      version: "1",
      description: [
        "Signing:",
        ...SIGNING_RULES.map((r) => `- ${r}`),
        "",
        `Worked example: secret \`${WORKED_EXAMPLE.secret}\`, query \`${WORKED_EXAMPLE.query}\` → signature \`${WORKED_EXAMPLE.signature}\`.`,
        "",
        "Where this differs from Binance:",
        ...DIFFERENCES.map((d) => `- ${d}`),
        "",
        "Public market streams (WebSocket, on the API's port):",
        ...STREAM_RULES.map((r) => `- ${r}`),
        ...MARKET_STREAMS.map((m) => `- \`${m.name}\`: ${m.payload}`),
      ].join("\n"),
    },
    servers: [{ url: "/" }],
    components: { securitySchemes: { apiKey: { type: "apiKey", in: "header", name: "X-MBX-APIKEY" } } },
    paths,
  };
}

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c,
  );
/** `code` spans of the rules' text as <code>, everything else escaped. */
const inline = (text: string) => escapeHtml(text).replace(/`([^`]+)`/g, "<code>$1</code>");

/** The readable page at /api/docs: rendered on the server from the same document, no script. */
export function referencePage(): string {
  const doc = openApiDocument();
  const rows = ENDPOINTS.map((e) => {
    const op = (
      doc.paths[e.path] as Record<
        string,
        {
          parameters: {
            name: string;
            required: boolean;
            description?: string;
            schema: Record<string, unknown>;
          }[];
        }
      >
    )[e.method];
    const params = (op?.parameters ?? [])
      .map(
        (p) =>
          `<li><code>${escapeHtml(p.name)}</code>${p.required ? " (required)" : ""}: ${escapeHtml(String(p.schema.type ?? (p.schema.enum ? "enum" : "")))}${
            Array.isArray(p.schema.enum) ? ` ${escapeHtml((p.schema.enum as string[]).join(" | "))}` : ""
          }${p.description ? ` — ${inline(p.description)}` : ""}</li>`,
      )
      .join("");
    return `<section><h3><span class="m">${e.method.toUpperCase()}</span> <code>${e.path}</code></h3><p>${inline(e.summary)}${
      e.signed ? ` Signed, permission <code>${e.signed}</code>.` : ""
    }</p>${params ? `<ul>${params}</ul>` : ""}</section>`;
  }).join("\n");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(doc.info.title)}</title>
<style>
body{font:15px/1.5 system-ui,sans-serif;max-width:860px;margin:2rem auto;padding:0 1rem;color:#1f2328}
code{font:13px ui-monospace,monospace;background:#f3f4f6;padding:1px 4px;border-radius:4px;word-break:break-all}
.m{display:inline-block;min-width:4.5em;font-size:12px;color:#fff;background:#2f6feb;border-radius:4px;padding:1px 6px;text-align:center}
section{border-top:1px solid #e5e7eb;padding:.5rem 0} pre{background:#f3f4f6;padding:.75rem;overflow-x:auto}
</style></head><body>
<h1>${escapeHtml(doc.info.title)}</h1>
<p>Tools written for Binance's spot API (ccxt's <code>binance</code> class, for one) work against this platform by changing the base URL. The machine-readable document is at <a href="/api/docs/openapi.json">/api/docs/openapi.json</a>.</p>
<h2>Signing requests</h2><ol>${SIGNING_RULES.map((r) => `<li>${inline(r)}</li>`).join("")}</ol>
<h3>Worked example</h3>
<p>Secret:</p><pre>${escapeHtml(WORKED_EXAMPLE.secret)}</pre>
<p>Query string (or body) as sent:</p><pre>${escapeHtml(WORKED_EXAMPLE.query)}</pre>
<p>HMAC-SHA256 of the query keyed with the secret, in hex, sent as <code>&amp;signature=…</code>:</p><pre>${escapeHtml(WORKED_EXAMPLE.signature)}</pre>
<h2>Where it differs from Binance</h2><ul>${DIFFERENCES.map((d) => `<li>${inline(d)}</li>`).join("")}</ul>
<h2>Endpoints</h2>
${rows}
<h2>Public market streams</h2><ul>${STREAM_RULES.map((r) => `<li>${inline(r)}</li>`).join("")}</ul>
${MARKET_STREAMS.map((m) => `<section><h3><code>${escapeHtml(m.name)}</code></h3><p>${inline(m.payload)}</p></section>`).join("\n")}
</body></html>`;
}
