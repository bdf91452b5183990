import { createHash, randomBytes, randomInt, scrypt, timingSafeEqual } from "node:crypto";
import { channel } from "node:diagnostics_channel";
import { promisify } from "node:util";

const scryptAsync = promisify(scrypt) as (
  password: string,
  salt: Buffer,
  keylen: number,
  options: { N: number; r: number; p: number; maxmem: number },
) => Promise<Buffer>;

// scrypt with N=2^15, r=8, p=1: about 32 MiB and ~60 ms per hash here, OWASP's recommended floor.
const PARAMS = { N: 1 << 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };
const KEY_LENGTH = 32;

/**
 * Every password comparison publishes its cost parameters (never the secret) on this diagnostics
 * channel: for metrics, and so that paths which must cost the same (an unknown account's login and a
 * wrong password) can be shown to do the same hash work.
 */
export const SECRET_VERIFY_CHANNEL = "northstar:secret-verify";
const verifications = channel(SECRET_VERIFY_CHANNEL);

/** Hashes a password or trade password as `scrypt$N$r$p$salt$hash` (base64url parts). */
export async function hashSecret(secret: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scryptAsync(secret.normalize("NFKC"), salt, KEY_LENGTH, PARAMS);
  return [
    "scrypt",
    PARAMS.N,
    PARAMS.r,
    PARAMS.p,
    salt.toString("base64url"),
    hash.toString("base64url"),
  ].join("$");
}

export async function verifySecret(secret: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split("$");
  if (scheme !== "scrypt" || !n || !r || !p || !salt || !hash) {
    return false;
  }
  const expected = Buffer.from(hash, "base64url");
  verifications.publish({ N: Number(n), r: Number(r), p: Number(p), keyLength: expected.length });
  const actual = await scryptAsync(
    secret.normalize("NFKC"),
    Buffer.from(salt, "base64url"),
    expected.length,
    {
      N: Number(n),
      r: Number(r),
      p: Number(p),
      maxmem: PARAMS.maxmem,
    },
  );
  return timingSafeEqual(actual, expected);
}

/** A session token: 32 random bytes. Only its SHA-256 is stored. */
export function newToken(): string {
  return randomBytes(32).toString("base64url");
}

export function sha256(value: string): string {
  return createHash("sha256").update(value).digest("hex");
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
