import { z } from "zod";

/**
 * The parameters of the Binance-compatible spot subset, as zod schemas: the routes parse with them
 * and the reference (/api/docs) is generated from them. Names, casing and values are Binance's.
 * Amounts stay decimal strings; a JS number never holds one.
 */
const zDecimalString = z
  .string({ message: "FIELD_INVALID" })
  .regex(/^\d{1,20}(\.\d{1,18})?$/, { message: "FIELD_INVALID" });
const zInt = z.coerce.number({ message: "FIELD_INVALID" }).int({ message: "FIELD_INVALID" });
/** A symbol in Binance's form: letters and digits, BTCUSDT. */
export const zBinanceSymbol = z
  .string({ message: "FIELD_REQUIRED" })
  .regex(/^[A-Za-z0-9]{2,32}$/, { message: "API_SYMBOL_INVALID" })
  .transform((s) => s.toUpperCase());

/** Every signed call carries these; the signature covers the query string and form body as sent. */
export const ZSignedParams = z.object({
  timestamp: z.string({ message: "FIELD_REQUIRED" }).describe("ms since the epoch, the client's clock"),
  recvWindow: z.string().optional().describe("ms the request stays valid after `timestamp` (default 5000)"),
  signature: z.string({ message: "FIELD_REQUIRED" }).describe("hex HMAC-SHA256 of the query string + body"),
});

export const ZDepthParams = z.object({
  symbol: zBinanceSymbol,
  limit: zInt.min(1).max(5000).default(100),
});

export const ZTradesParams = z.object({
  symbol: zBinanceSymbol,
  limit: zInt.min(1).max(1000).default(500),
});

export const KLINE_INTERVALS = ["1m", "5m", "15m", "1h", "4h", "1d", "1w", "1M"] as const;
export const ZKlinesParams = z.object({
  symbol: zBinanceSymbol,
  interval: z.enum(KLINE_INTERVALS, { message: "FIELD_INVALID" }),
  startTime: zInt.min(0).optional(),
  endTime: zInt.min(0).optional(),
  limit: zInt.min(1).max(1000).default(500),
});

/** `symbol` or `symbols` (a JSON array), or neither for every market. */
export const ZTickerParams = z.object({
  symbol: zBinanceSymbol.optional(),
  symbols: z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined) {
        return undefined;
      }
      try {
        const list = JSON.parse(v) as unknown;
        if (
          Array.isArray(list) &&
          list.every((s) => typeof s === "string" && /^[A-Za-z0-9]{2,32}$/.test(s))
        ) {
          return (list as string[]).map((s) => s.toUpperCase());
        }
      } catch {}
      ctx.addIssue({ code: "custom", message: "API_SYMBOL_INVALID", path: ["symbols"] });
      return z.NEVER;
    }),
});

export const ORDER_TYPES = ["LIMIT", "MARKET", "LIMIT_MAKER"] as const;
export const ZNewOrderParams = z.object({
  symbol: zBinanceSymbol,
  side: z.enum(["BUY", "SELL"], { message: "FIELD_INVALID" }),
  type: z
    .string({ message: "FIELD_REQUIRED" })
    .describe("LIMIT, MARKET or LIMIT_MAKER; STOP_* types are refused"),
  timeInForce: z.string().optional().describe("GTC or IOC; FOK is refused (the engine has no fill-or-kill)"),
  quantity: zDecimalString.optional(),
  quoteOrderQty: zDecimalString.optional().describe("MARKET BUY only: spend at most this much of the quote"),
  price: zDecimalString.optional(),
  newClientOrderId: z
    .string()
    .regex(/^[.A-Z:/a-z0-9_-]{1,36}$/, { message: "FIELD_INVALID" })
    .optional()
    .describe("the order's id of the client's choosing; a resend answers the first order"),
  newOrderRespType: z.enum(["ACK", "RESULT", "FULL"]).optional(),
});

export const ZOrderRefParams = z.object({
  symbol: zBinanceSymbol,
  orderId: zInt.min(1).optional(),
  origClientOrderId: z.string().max(36).optional(),
});

export const ZOpenOrdersParams = z.object({ symbol: zBinanceSymbol.optional() });

export const ZAllOrdersParams = z.object({
  symbol: zBinanceSymbol,
  orderId: zInt.min(1).optional(),
  startTime: zInt.min(0).optional(),
  endTime: zInt.min(0).optional(),
  limit: zInt.min(1).max(1000).default(500),
});

export const ZMyTradesParams = z.object({
  symbol: zBinanceSymbol,
  orderId: zInt.min(1).optional(),
  fromId: zInt.min(1).optional(),
  startTime: zInt.min(0).optional(),
  endTime: zInt.min(0).optional(),
  limit: zInt.min(1).max(1000).default(500),
});

export const ZAccountParams = z.object({ omitZeroBalances: z.enum(["true", "false"]).optional() });
