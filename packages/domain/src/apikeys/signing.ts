import { createHmac, timingSafeEqual } from "node:crypto";
import type { TApiKeyPermission } from "@northstar/shared/contracts/apikeys";
import { eq } from "drizzle-orm";
import type { Redis } from "ioredis";
import type { Db } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { sha256, type User, users } from "../identity/index.ts";
import { getPolicies, policyGeneration } from "../policy/index.ts";
import { apiKeys } from "./apikeys.table.ts";
import { type ApiKeyRow, decryptApiSecret, revisionKey } from "./keys.ts";

// The three limits every signed request reads, kept a second per database (as spot keeps its terms):
// an operator's change applies to new requests within a second, at once in the process that made it.
const POLICY_TTL_MS = 1000;
const SIGNING_POLICIES = [
  "apikeys.maxRecvWindowMs",
  "apikeys.requestsPerSecond",
  "apikeys.ordersPerSecond",
] as const;
type SigningPolicies = Awaited<ReturnType<typeof getPolicies<typeof SIGNING_POLICIES>>>;
const policyCache = new WeakMap<
  object,
  { at: number; generation: number; value: Promise<SigningPolicies> }
>();

function signingPolicies(db: Db): Promise<SigningPolicies> {
  const hit = policyCache.get(db);
  const now = Date.now();
  if (hit && now - hit.at < POLICY_TTL_MS && hit.generation === policyGeneration()) {
    return hit.value;
  }
  const value = getPolicies(db, SIGNING_POLICIES);
  policyCache.set(db, { at: now, generation: policyGeneration(), value });
  value.catch(() => policyCache.delete(db));
  return value;
}

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
  /** This process's cache of keys and their opened secrets; without one every request reads the row. */
  cache?: ApiKeyCache;
}

/** How long a cached key is trusted without a change being announced: bounds an owner's freeze. */
export const KEY_CACHE_TTL_MS = 5_000;
const KEY_CACHE_MAX = 10_000;

interface CachedKey {
  auth: KeyAuthenticated;
  /** the revision read before the row; a different one in Redis means the row changed */
  revision: string | null;
  secret: string | null;
  at: number;
}

/**
 * A process's keys by the hash of the API key: the row, its owner and the opened secret, so a signed
 * request reads neither the database nor decrypts per call. An entry is trusted for `KEY_CACHE_TTL_MS`
 * and only while the key's revision in Redis (read in the same round trip as the rate counter) is
 * the one it was loaded with: a key disabled, deleted, blocked or changed on any process is refused by
 * every process on its next request.
 */
export class ApiKeyCache {
  private readonly entries = new Map<string, CachedKey>();

  get(hash: string, now: number): CachedKey | undefined {
    const entry = this.entries.get(hash);
    if (entry && now - entry.at > KEY_CACHE_TTL_MS) {
      this.entries.delete(hash);
      return undefined;
    }
    return entry;
  }

  set(hash: string, entry: CachedKey): void {
    if (this.entries.size >= KEY_CACHE_MAX) {
      // The oldest entry goes (a Map iterates in insertion order).
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) {
        this.entries.delete(oldest);
      }
    }
    this.entries.set(hash, entry);
  }

  drop(hash: string): void {
    this.entries.delete(hash);
  }

  get size(): number {
    return this.entries.size;
  }
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
  const row = await readKey(db, sha256(apiKey));
  assertUsable(row);
  return row;
}

async function readKey(db: Db, keyHash: string): Promise<KeyAuthenticated | undefined> {
  const [row] = await db
    .select({ key: apiKeys, user: users })
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.userId))
    .where(eq(apiKeys.keyHash, keyHash));
  return row;
}

/** The key is active, its owner not frozen, a demo owner not expired. */
function assertUsable(row: KeyAuthenticated | undefined): asserts row is KeyAuthenticated {
  if (row?.key.status !== "active" || row.user.status === "frozen") {
    throw new AppError("API_KEY_INVALID");
  }
  if (row.user.kind === "demo" && row.user.demoExpiresAt && row.user.demoExpiresAt.getTime() <= Date.now()) {
    throw new AppError("DEMO_EXPIRED");
  }
}

/** The key of a request from this process's cache, or read (its revision first) and cached. */
async function keyOf(deps: SigningDeps, apiKey: string | undefined, now: number, reload: boolean) {
  if (!apiKey || !/^[A-Za-z0-9]{1,128}$/.test(apiKey)) {
    throw new AppError("API_KEY_INVALID");
  }
  const hash = sha256(apiKey);
  const cached = reload ? undefined : deps.cache?.get(hash, now);
  if (cached) {
    return { hash, entry: cached, cached: true };
  }
  // The revision before the row: a change committed after this read bumps it past what is stored.
  const revision = deps.cache ? await deps.redis.get(revisionKey(deps.prefix, hash)) : null;
  const row = await readKey(deps.db, hash);
  assertUsable(row);
  const entry: CachedKey = { auth: row, revision, secret: null, at: now };
  deps.cache?.set(hash, entry);
  return { hash, entry, cached: false };
}

/**
 * Counts one more call in this second's window (and one more order for a new order), reading the
 * key's revision in the same round trip. Answers the revision and the counts.
 */
async function count(deps: SigningDeps, keyId: number, keyHash: string, order: boolean, now: number) {
  const second = Math.floor(now / 1000);
  const requests = `${deps.prefix}:apikey:rate:req:${keyId}:${second}`;
  const orders = `${deps.prefix}:apikey:rate:order:${keyId}:${second}`;
  const multi = deps.redis.multi().incr(requests).pexpire(requests, 2000);
  if (order) {
    multi.incr(orders).pexpire(orders, 2000);
  }
  multi.get(revisionKey(deps.prefix, keyHash));
  const results = (await multi.exec()) as [Error | null, unknown][];
  const failed = results.find(([error]) => error);
  if (failed) {
    throw failed[0];
  }
  return {
    requests: Number(results[0]?.[1]),
    orders: order ? Number(results[2]?.[1]) : 0,
    revision: (results[results.length - 1]?.[1] as string | null) ?? null,
    /** Takes the counts back: for a request refused on what a fresh read of its key showed. */
    undo: () => {
      const undo = deps.redis.multi().decr(requests);
      if (order) {
        undo.decr(orders);
      }
      return undo.exec();
    },
    undoOrder: () => deps.redis.decr(orders),
  };
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
  reload = false,
): Promise<KeyAuthenticated> {
  const now = deps.now?.() ?? Date.now();
  const { hash, entry, cached } = await keyOf(deps, request.apiKey, now, reload);
  const { auth } = entry;
  const { key } = auth;
  try {
    if (cached) {
      // The owner's status is read with the key; a demo account's end is checked against the clock.
      assertUsable(auth);
    }
    if (key.ipAllowList.length > 0 && !key.ipAllowList.includes(normaliseIp(request.ip))) {
      throw new AppError("API_KEY_IP_NOT_ALLOWED");
    }
    if (!key.permissions.includes(request.permission)) {
      throw new AppError("API_KEY_PERMISSION");
    }
  } catch (error) {
    if (cached) {
      // A refusal on a copy is confirmed on the row: the key may have been changed back meanwhile.
      deps.cache?.drop(hash);
      return verifySignedRequest(deps, request, true);
    }
    throw error;
  }
  const [maxWindow, perSecond, ordersPerSecond] = await signingPolicies(deps.db);
  const counted = await count(deps, key.id, hash, request.order === true, now);
  if (cached && counted.revision !== entry.revision) {
    // The key changed since this process read it: read it again and check everything anew.
    deps.cache?.drop(hash);
    await counted.undo();
    return verifySignedRequest(deps, request, true);
  }
  if (counted.requests > perSecond) {
    if (request.order) {
      await counted.undoOrder();
    }
    throw new AppError("API_TOO_MANY_REQUESTS", { seconds: 1 });
  }
  if (request.order && counted.orders > ordersPerSecond) {
    throw new AppError("API_TOO_MANY_ORDERS", { seconds: 1 });
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
  entry.secret ??= decryptApiSecret(key);
  const expected = signPayload(entry.secret, request.payload);
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
  // At most one write a minute per key and process for "last used".
  if (!key.lastUsedAt || now - key.lastUsedAt.getTime() > 60_000) {
    key.lastUsedAt = new Date(now);
    await deps.db.update(apiKeys).set({ lastUsedAt: key.lastUsedAt }).where(eq(apiKeys.id, key.id));
  }
  return auth;
}

/** IPv4 addresses reach Node as IPv4-mapped IPv6 on dual-stack sockets. */
export const normaliseIp = (ip: string) => ip.toLowerCase().replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/, "$1");
