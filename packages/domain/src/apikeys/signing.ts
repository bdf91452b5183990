import { createHmac, timingSafeEqual } from "node:crypto";
import type { TApiKeyPermission } from "@northstar/shared/contracts/apikeys";
import { eq } from "drizzle-orm";
import type { Redis } from "ioredis";
import type { Db } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { sha256, type User, users } from "../identity/index.ts";
import { getPolicies } from "../policy/index.ts";
import { apiKeys } from "./apikeys.table.ts";
import { type ApiKeyRow, decryptApiSecret } from "./keys.ts";

/** Binance's default window when a request names none. */
export const DEFAULT_RECV_WINDOW_MS = 5000;
/** A timestamp this far ahead of the server's clock is still accepted (Binance's rule). */
const AHEAD_MS = 1000;

/** The signature of `payload` under `secret`: hex HMAC-SHA256, as Binance signs requests. */
export const signPayload = (secret: string, payload: string) =>
  createHmac("sha256", secret).update(payload).digest("hex");

export interface SignedRequest {
  /** The `X-MBX-APIKEY` header. */
  apiKey: string | undefined;
  /**
   * What the client signed: the query string as sent (without `signature`) followed by the form body
   * as sent, with nothing between them.
   */
  payload: string;
  signature: string | undefined;
  timestamp: string | undefined;
  recvWindow: string | undefined;
  ip: string;
  permission: TApiKeyPermission;
  /** A new order: counted against the key's orders per second too. */
  order?: boolean;
}

export interface SigningDeps {
  db: Db;
  redis: Redis;
  prefix: string;
  /** The server's clock in ms; tests move it. */
  now?: () => number;
}

export interface KeyAuthenticated {
  user: User;
  key: ApiKeyRow;
}

/** Only the key header is checked: for calls Binance marks USER_STREAM/MARKET_DATA with a key. */
export async function findActiveKey(db: Db, apiKey: string | undefined): Promise<KeyAuthenticated> {
  if (!apiKey || !/^[A-Za-z0-9]{1,128}$/.test(apiKey)) {
    throw new AppError("API_KEY_INVALID");
  }
  const [row] = await db
    .select({ key: apiKeys, user: users })
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.userId))
    .where(eq(apiKeys.keyHash, sha256(apiKey)));
  if (row?.key.status !== "active" || row.user.status === "frozen") {
    throw new AppError("API_KEY_INVALID");
  }
  if (row.user.kind === "demo" && row.user.demoExpiresAt && row.user.demoExpiresAt.getTime() <= Date.now()) {
    throw new AppError("DEMO_EXPIRED");
  }
  return row;
}

/** Counts one more call in this second's window; beyond `max` refuses with the seconds to wait. */
async function countIn(
  deps: SigningDeps,
  name: string,
  max: number,
  now: number,
  code: "API_TOO_MANY_REQUESTS" | "API_TOO_MANY_ORDERS",
) {
  const second = Math.floor(now / 1000);
  const key = `${deps.prefix}:apikey:rate:${name}:${second}`;
  const [[, n]] = (await deps.redis.multi().incr(key).pexpire(key, 2000).exec()) as [[null, number]];
  if (n > max) {
    throw new AppError(code, { seconds: 1 });
  }
}

/**
 * Checks a signed request as Binance does, in an order that leaves no trace of a refused one: the
 * key (active, not blocked, its owner not frozen), the address list, the permission, the key's
 * request (and order) rate, the timestamp within `recvWindow`, the signature, and last that the
 * signature was not seen before within its window (a replay). Answers the key and its owner.
 */
export async function verifySignedRequest(
  deps: SigningDeps,
  request: SignedRequest,
): Promise<KeyAuthenticated> {
  const auth = await findActiveKey(deps.db, request.apiKey);
  const { key } = auth;
  if (key.ipAllowList.length > 0 && !key.ipAllowList.includes(normaliseIp(request.ip))) {
    throw new AppError("API_KEY_IP_NOT_ALLOWED");
  }
  if (!key.permissions.includes(request.permission)) {
    throw new AppError("API_KEY_PERMISSION");
  }
  const [maxWindow, perSecond, ordersPerSecond] = await getPolicies(deps.db, [
    "apikeys.maxRecvWindowMs",
    "apikeys.requestsPerSecond",
    "apikeys.ordersPerSecond",
  ] as const);
  const now = deps.now?.() ?? Date.now();
  await countIn(deps, `req:${key.id}`, perSecond, now, "API_TOO_MANY_REQUESTS");
  if (request.order) {
    await countIn(deps, `order:${key.id}`, ordersPerSecond, now, "API_TOO_MANY_ORDERS");
  }
  const window = request.recvWindow === undefined ? DEFAULT_RECV_WINDOW_MS : Number(request.recvWindow);
  if (!Number.isFinite(window) || window <= 0 || window > maxWindow) {
    throw new AppError("API_RECV_WINDOW_INVALID", { max: maxWindow }, "recvWindow");
  }
  const timestamp = Number(request.timestamp);
  if (
    !request.timestamp ||
    !/^\d{1,16}$/.test(request.timestamp) ||
    timestamp >= now + AHEAD_MS ||
    now - timestamp > window
  ) {
    throw new AppError("API_TIMESTAMP_OUTSIDE_WINDOW", {}, "timestamp");
  }
  const given = request.signature ?? "";
  const expected = signPayload(decryptApiSecret(key), request.payload);
  if (
    !/^[0-9a-fA-F]{64}$/.test(given) ||
    !timingSafeEqual(Buffer.from(given.toLowerCase()), Buffer.from(expected))
  ) {
    throw new AppError("API_SIGNATURE_INVALID", {}, "signature");
  }
  // A signature is accepted once: remembered as long as its timestamp could still be accepted.
  const seen = `${deps.prefix}:apikey:seen:${key.id}:${expected}`;
  const fresh = await deps.redis.set(seen, "1", "PX", Math.max(1, timestamp + window - now + AHEAD_MS), "NX");
  if (fresh !== "OK") {
    throw new AppError("API_SIGNATURE_REPLAYED", {}, "signature");
  }
  // At most one write a minute per key for "last used".
  if (!key.lastUsedAt || now - key.lastUsedAt.getTime() > 60_000) {
    await deps.db
      .update(apiKeys)
      .set({ lastUsedAt: new Date(now) })
      .where(eq(apiKeys.id, key.id));
  }
  return auth;
}

/** IPv4 addresses reach Node as IPv4-mapped IPv6 on dual-stack sockets. */
export const normaliseIp = (ip: string) => ip.toLowerCase().replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/, "$1");
