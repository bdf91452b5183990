import { hash, randomBytes, randomInt, scrypt, timingSafeEqual } from "node:crypto";
import { channel } from "node:diagnostics_channel";
import { availableParallelism } from "node:os";
import { promisify } from "node:util";
import { AppError } from "../errors.ts";

const scryptAsync = promisify(scrypt) as (
  password: string,
  salt: Buffer,
  keylen: number,
  options: { N: number; r: number; p: number; maxmem: number },
) => Promise<Buffer>;

type Cost = { N: number; r: number; p: number };
// scrypt with N=2^15, r=8, p=1: about 32 MiB and ~60 ms per hash here, OWASP's recommended floor.
const PRODUCTION_COST: Cost = { N: 1 << 15, r: 8, p: 1 };
// The integration tests' cost (see useTestSecretCost): about 1 MiB and 1 ms.
const TEST_COST: Cost = { N: 1 << 10, r: 8, p: 1 };
const MAXMEM = 64 * 1024 * 1024;
const KEY_LENGTH = 32;
// The least cost a stored hash may carry and still prove a secret: the cost hashes were first made
// at. Raising PRODUCTION_COST one day must leave this where it is, or every stored hash would stop
// verifying (hashes keep the cost they were made at).
const PRODUCTION_FLOOR: Cost = { N: 1 << 15, r: 8, p: 1 };
let cost = PRODUCTION_COST;
let floor = PRODUCTION_FLOOR;

/**
 * Integration tests only: hash at TEST_COST, so the thousands of sign-ups, sign-ins and trade
 * passwords of a test run do not spend most of its CPU on scrypt. Nothing in the product calls it
 * (the module's face does not export it; the integration tests' setup file imports it by path), and
 * it throws outside a vitest worker, so no configuration can lower production's cost. Hashes made
 * here carry the test cost, and verifySecret refuses a stored hash below production's floor, so one
 * that reached a production database would never verify there.
 */
export function useTestSecretCost(enabled = true): void {
  // biome-ignore lint/style/noProcessEnv: the test runner's own mark on its workers, not configuration
  if (enabled && !process.env.VITEST_WORKER_ID) {
    throw new Error("the test cost of secret hashing is for the test runner only");
  }
  cost = enabled ? TEST_COST : PRODUCTION_COST;
  floor = enabled ? TEST_COST : PRODUCTION_FLOOR;
}

/**
 * Every password comparison publishes its cost parameters (never the secret) on this diagnostics
 * channel: for metrics, and so that paths which must cost the same (an unknown account's login and a
 * wrong password) can be shown to do the same hash work.
 */
export const SECRET_VERIFY_CHANNEL = "northstar:secret-verify";
const verifications = channel(SECRET_VERIFY_CHANNEL);

/**
 * Who asks for hash work. Each hash costs tens of milliseconds of a core, so a flood of anonymous
 * logins could take every core from signed-in users: hash work runs at most `concurrency` at a time
 * per process, signed-in users' checks (trade password, changing a password) go before anonymous
 * work (logins, sign-ups, operator sign-in) in the queue, and anonymous work finding half the queue
 * full of anonymous work, or any work finding it full, is refused as busy (`SERVER_BUSY`) at once.
 */
export type HashPriority = "signed-in" | "anonymous";

export type SecretHashingLimits = { concurrency: number; queue: number };
let hashing: SecretHashingLimits = {
  // One core stays free for the event loop (and the database) on a small machine.
  concurrency: Math.max(1, availableParallelism() - 1),
  queue: 64,
};
let running = 0;
const queued: Record<HashPriority, Array<() => void>> = { "signed-in": [], anonymous: [] };

/** Sets this process's hash work limits (the API sets them from its environment at boot). */
export function configureSecretHashing(limits: Partial<SecretHashingLimits>): void {
  hashing = { ...hashing, ...limits };
}

/** The hash work running and waiting in this process (for tests and metrics). */
export function secretHashingLoad() {
  return { running, signedIn: queued["signed-in"].length, anonymous: queued.anonymous.length };
}

function queueFull(priority: HashPriority): boolean {
  const waiting = queued["signed-in"].length + queued.anonymous.length;
  return (
    waiting >= hashing.queue ||
    (priority === "anonymous" && queued.anonymous.length >= Math.ceil(hashing.queue / 2))
  );
}

/**
 * Refuses as busy at once when hash work of `priority` would be refused now: anonymous sign-ins call
 * it first, so a flood costs no database work (no attempt reserved) for the requests it refuses.
 */
export function assertHashCapacity(priority: HashPriority): void {
  if (queueFull(priority)) {
    throw new AppError("SERVER_BUSY");
  }
}

/** Whether hash work of `priority` would be queued or run now (the API refuses early without it). */
export function hasHashCapacity(priority: HashPriority): boolean {
  return !queueFull(priority);
}

async function withHashSlot<T>(priority: HashPriority, work: () => Promise<T>): Promise<T> {
  const waiting = queued["signed-in"].length + queued.anonymous.length;
  if (running < hashing.concurrency && waiting === 0) {
    running += 1;
  } else {
    if (queueFull(priority)) {
      throw new AppError("SERVER_BUSY");
    }
    // The slot is handed over by the work that ends (running stays counted).
    await new Promise<void>((resolve) => queued[priority].push(resolve));
  }
  try {
    return await work();
  } finally {
    const next = queued["signed-in"].shift() ?? queued.anonymous.shift();
    if (next) {
      next();
    } else {
      running -= 1;
    }
  }
}

/** Hashes a password or trade password as `scrypt$N$r$p$salt$hash` (base64url parts). */
export async function hashSecret(secret: string, priority: HashPriority = "signed-in"): Promise<string> {
  const salt = randomBytes(16);
  const { N, r, p } = cost;
  const hash = await withHashSlot(priority, () =>
    scryptAsync(secret.normalize("NFKC"), salt, KEY_LENGTH, { N, r, p, maxmem: MAXMEM }),
  );
  return ["scrypt", N, r, p, salt.toString("base64url"), hash.toString("base64url")].join("$");
}

export async function verifySecret(
  secret: string,
  stored: string,
  priority: HashPriority = "signed-in",
): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split("$");
  if (scheme !== "scrypt" || !n || !r || !p || !salt || !hash) {
    return false;
  }
  const params = { N: Number(n), r: Number(r), p: Number(p) };
  // A hash cheaper than the floor (a test's) is no proof here: refused like a malformed one.
  if (!(params.N >= floor.N && params.r >= floor.r && params.p >= floor.p)) {
    return false;
  }
  const expected = Buffer.from(hash, "base64url");
  const actual = await withHashSlot(priority, () => {
    verifications.publish({ ...params, keyLength: expected.length });
    return scryptAsync(secret.normalize("NFKC"), Buffer.from(salt, "base64url"), expected.length, {
      ...params,
      maxmem: MAXMEM,
    });
  });
  return timingSafeEqual(actual, expected);
}

/** A session token: 32 random bytes. Only its SHA-256 is stored. */
export function newToken(): string {
  return randomBytes(32).toString("base64url");
}

/** Hex SHA-256 of a text (one-shot `hash`: a fifth of the CPU of a Hash object for a token). */
export function sha256(value: string): string {
  return hash("sha256", value, "hex");
}

/** A 6-digit verification code from a CSPRNG. */
export function newCode(): string {
  return randomInt(0, 1_000_000).toString().padStart(6, "0");
}

/** A short, unambiguous invitation code (no 0/O/1/I). */
export function newInviteCode(): string {
  const alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
  const bytes = randomBytes(6);
  return Array.from(bytes, (b) => alphabet[b % alphabet.length]).join("");
}
