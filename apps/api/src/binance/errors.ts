import { isAppError } from "@northstar/domain/errors";
import type { ErrorCode } from "@northstar/shared/errors";
import type { Language } from "@northstar/shared/languages";
import { ZodError } from "zod";
import { fromZodError, toRefusal } from "../http/errors.ts";

/** A refusal as Binance answers one: HTTP status, `{ code, msg }`, and for 429 the seconds to wait. */
export interface BinanceRefusal {
  status: number;
  body: { code: number; msg: string };
  retryAfter?: number;
}

/**
 * Our error codes in Binance's numbering (its spot API's error list), so tools that branch on the
 * code (ccxt maps them to its exception classes) read each refusal as Binance would have meant it.
 */
const CODES: Partial<Record<ErrorCode, [number, number]>> = {
  API_TIMESTAMP_OUTSIDE_WINDOW: [-1021, 400],
  API_SIGNATURE_INVALID: [-1022, 400],
  API_SIGNATURE_REPLAYED: [-1022, 400],
  API_KEY_INVALID: [-2015, 401],
  API_KEY_PERMISSION: [-2015, 401],
  API_KEY_IP_NOT_ALLOWED: [-2015, 401],
  DEMO_EXPIRED: [-2015, 401],
  API_RECV_WINDOW_INVALID: [-1131, 400],
  API_TOO_MANY_REQUESTS: [-1003, 429],
  API_TOO_MANY_ORDERS: [-1015, 429],
  API_SYMBOL_INVALID: [-1121, 400],
  SPOT_NOT_AVAILABLE: [-1121, 400],
  INSTRUMENT_NOT_FOUND: [-1121, 400],
  ORDER_NOT_FOUND: [-2013, 400],
  ORDER_NOT_OPEN: [-2011, 400],
  FIELD_REQUIRED: [-1102, 400],
  FIELD_INVALID: [-1100, 400],
  MALFORMED_REQUEST: [-1104, 400],
  PRICE_OFF_TICK: [-1013, 400],
  QUANTITY_OFF_LOT: [-1013, 400],
  QUANTITY_BELOW_MINIMUM: [-1013, 400],
  AMOUNT_TOO_LARGE: [-1013, 400],
  INSUFFICIENT_BALANCE: [-2010, 400],
  MARKET_CLOSED: [-2010, 400],
  MARKET_PRICE_STALE: [-2010, 400],
  NO_LIQUIDITY: [-2010, 400],
  TOO_MANY_OPEN_ORDERS: [-2010, 400],
  IDEMPOTENCY_KEY_REUSED: [-2010, 400],
  SESSION_ENDED: [-2015, 401],
  API_LISTEN_KEY_UNKNOWN: [-1125, 400],
};

/** Binance's own English text for the codes whose text tools match on (ccxt reads a few of them). */
const BINANCE_TEXT: Partial<Record<ErrorCode, string>> = {
  INSUFFICIENT_BALANCE: "Account has insufficient balance for requested action.",
  ORDER_NOT_FOUND: "Order does not exist.",
  ORDER_NOT_OPEN: "Unknown order sent.",
};

/** Translates any error into Binance's shape, the message in the caller's language. */
export function toBinanceRefusal(error: unknown, lang: Language): BinanceRefusal {
  const appError = error instanceof ZodError ? fromZodError(error) : isAppError(error) ? error : null;
  if (!appError) {
    return { status: 500, body: { code: -1000, msg: toRefusal(error, lang).message } };
  }
  const refusal = toRefusal(appError, lang);
  let [code, status] = CODES[appError.code] ?? [-1013, 400];
  if (appError.code === "API_ORDER_TYPE_UNSUPPORTED") {
    // -1115: invalid timeInForce; -1116: invalid orderType.
    [code, status] = appError.field === "timeInForce" ? [-1115, 400] : [-1116, 400];
  }
  const text = lang === "en" ? (BINANCE_TEXT[appError.code] ?? refusal.message) : refusal.message;
  return {
    status,
    body: { code, msg: text },
    ...(status === 429 ? { retryAfter: Number(appError.params.seconds ?? 1) } : {}),
  };
}
