import { randomInt } from "node:crypto";
import type {
  TLinkedWallet,
  TWalletNonceRequest,
  TWalletSignInRequest,
} from "@northstar/shared/contracts/wallet-login";
import { and, asc, count, eq, gt, isNull, sql } from "drizzle-orm";
import { getAddress, isAddress, verifyMessage } from "viem";
import { createSiweMessage, generateSiweNonce, parseSiweMessage, validateSiweMessage } from "viem/siwe";
import type { Db } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { getPolicy } from "../policy/index.ts";
import type { User } from "./accounts.ts";
import { users } from "./identity.table.ts";
import { reserveAttempt, type SecretTarget, settleAttempt } from "./secret-attempts.ts";
import { newInviteCode } from "./secrets.ts";
import { createSession } from "./sessions.ts";
import { walletLinks, walletNonces } from "./wallets.table.ts";

/**
 * Sign-In with Ethereum (EIP-4361). The server writes the message: its domain and URI are the
 * site's public address, its nonce is stored for one address, chain and purpose, lives
 * `identity.wallet.nonceTtlMinutes` and is used once. The signed message comes back, and is
 * accepted only when it names this site, a chain of `identity.wallet.chainIds`, an unused and
 * unexpired nonce issued for that address, and carries that address's signature. Each check first
 * takes an attempt from the caller's IP address allowance; a success gives it back.
 */
export type WalletPurpose = "login" | "link";

export interface SiteIdentity {
  /** The site's public URL (PUBLIC_URL): its host is the message's domain, its origin the URI. */
  publicUrl: string;
}

const UNIQUE_VIOLATION = "23505";
/** An account made by a wallet has no password: no `scrypt$…` hash, so every password check fails. */
const NO_PASSWORD = "none";

function site(publicUrl: string): { domain: string; uri: string; scheme: string } {
  const url = new URL(publicUrl);
  return { domain: url.host, uri: url.origin, scheme: url.protocol.replace(/:$/, "") };
}

function checksum(address: string): `0x${string}` {
  if (!isAddress(address, { strict: false })) {
    throw new AppError("WALLET_ADDRESS_INVALID", {}, "address");
  }
  return getAddress(address);
}

async function assertChain(db: Db, chainId: number): Promise<void> {
  const chains = await getPolicy(db, "identity.wallet.chainIds");
  if (!chains.includes(chainId)) {
    throw new AppError("WALLET_CHAIN_UNSUPPORTED", {}, "chainId");
  }
}

/**
 * Issues a nonce and the message to sign. At most `identity.wallet.noncesPerHour` per IP address:
 * the count and the insert run under a lock on the address, so parallel requests never pass it.
 */
export async function issueWalletNonce(
  db: Db,
  params: {
    input: TWalletNonceRequest;
    purpose: WalletPurpose;
    userId?: number;
    ip: string;
    site: SiteIdentity;
    now?: Date;
  },
): Promise<{ message: string; nonce: string; expiresAt: string }> {
  const now = params.now ?? new Date();
  const address = checksum(params.input.address);
  await assertChain(db, params.input.chainId);
  const [ttl, perHour] = await Promise.all([
    getPolicy(db, "identity.wallet.nonceTtlMinutes"),
    getPolicy(db, "identity.wallet.noncesPerHour"),
  ]);
  const expiresAt = new Date(now.getTime() + ttl * 60_000);
  const nonce = generateSiweNonce();
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`wallet-nonce:${params.ip}`}))`);
    const [issued] = await tx
      .select({ n: count() })
      .from(walletNonces)
      .where(
        and(eq(walletNonces.ip, params.ip), gt(walletNonces.createdAt, new Date(now.getTime() - 3600_000))),
      );
    if ((issued?.n ?? 0) >= perHour) {
      throw new AppError("WALLET_NONCE_THROTTLED");
    }
    await tx.insert(walletNonces).values({
      nonce,
      purpose: params.purpose,
      userId: params.userId ?? null,
      address,
      chainId: params.input.chainId,
      ip: params.ip,
      createdAt: now,
      expiresAt,
    });
  });
  const { domain, uri, scheme } = site(params.site.publicUrl);
  const message = createSiweMessage({
    domain,
    uri,
    scheme,
    address,
    chainId: params.input.chainId,
    nonce,
    version: "1",
    issuedAt: now,
    expirationTime: expiresAt,
    statement:
      params.purpose === "login"
        ? `Sign in to ${domain} with this wallet.`
        : `Link this wallet to your account on ${domain}.`,
  });
  return { message, nonce, expiresAt: expiresAt.toISOString() };
}

/** Checks a signed message against the site, the chain policy, its nonce and its signature; uses the nonce. */
async function acceptSignedMessage(
  db: Db,
  params: {
    input: TWalletSignInRequest;
    purpose: WalletPurpose;
    userId?: number;
    ip: string;
    site: SiteIdentity;
    now: Date;
  },
): Promise<{ address: `0x${string}`; chainId: number }> {
  const parsed = parseSiweMessage(params.input.message);
  if (!parsed.address || !parsed.nonce || !parsed.domain || !parsed.uri || !parsed.chainId) {
    throw new AppError("WALLET_MESSAGE_INVALID");
  }
  const address = checksum(parsed.address);
  // Counted per IP address, not per wallet: a signature cannot be guessed, and a count per wallet
  // would let anyone lock a wallet's owner out by sending bad messages naming it.
  const target: SecretTarget = { kind: "wallet_signin", subject: `address:${params.ip}` };
  const attempt = await reserveAttempt(db, target);
  if (!attempt.allowed) {
    throw new AppError("WALLET_LOCKED", { minutes: attempt.minutes });
  }
  try {
    const checked = await checkSignedMessage(db, params, parsed, address);
    await settleAttempt(db, attempt.reservation, "right");
    return checked;
  } catch (error) {
    // Every refusal of the message counts as a failure; a fault of ours (no answer) does not.
    await settleAttempt(db, attempt.reservation, error instanceof AppError ? "wrong" : "void");
    throw error;
  }
}

async function checkSignedMessage(
  db: Db,
  params: Parameters<typeof acceptSignedMessage>[1],
  parsed: ReturnType<typeof parseSiweMessage>,
  address: `0x${string}`,
): Promise<{ address: `0x${string}`; chainId: number }> {
  const chainId = parsed.chainId as number;
  const nonce = parsed.nonce as string;
  const expected = site(params.site.publicUrl);
  let uriOrigin: string | null = null;
  try {
    uriOrigin = new URL(parsed.uri ?? "").origin;
  } catch {
    uriOrigin = null;
  }
  if (parsed.domain !== expected.domain || uriOrigin !== expected.uri) {
    throw new AppError("WALLET_DOMAIN_MISMATCH");
  }
  if (parsed.scheme && parsed.scheme !== expected.scheme) {
    throw new AppError("WALLET_DOMAIN_MISMATCH");
  }
  await assertChain(db, chainId);
  // expirationTime and notBefore, against the (test) clock.
  if (!validateSiweMessage({ message: parsed, domain: expected.domain, address, time: params.now })) {
    throw new AppError("WALLET_NONCE_INVALID");
  }
  let signed = false;
  try {
    signed = await verifyMessage({
      address,
      message: params.input.message,
      signature: params.input.signature as `0x${string}`,
    });
  } catch {
    signed = false;
  }
  if (!signed) {
    throw new AppError("WALLET_SIGNATURE_INVALID", {}, "signature");
  }
  // The nonce is used in the same statement that checks it: of any number of replays, one passes.
  const used = await db
    .update(walletNonces)
    .set({ usedAt: params.now })
    .where(
      and(
        eq(walletNonces.nonce, nonce),
        eq(walletNonces.purpose, params.purpose),
        eq(walletNonces.address, address),
        eq(walletNonces.chainId, chainId),
        params.userId === undefined ? isNull(walletNonces.userId) : eq(walletNonces.userId, params.userId),
        isNull(walletNonces.usedAt),
        gt(walletNonces.expiresAt, params.now),
      ),
    )
    .returning({ nonce: walletNonces.nonce });
  if (used.length === 0) {
    throw new AppError("WALLET_NONCE_INVALID");
  }
  return { address, chainId };
}

async function ownerOf(db: Db, address: string): Promise<User | undefined> {
  const [row] = await db
    .select({ user: users })
    .from(walletLinks)
    .innerJoin(users, eq(users.id, walletLinks.userId))
    .where(eq(walletLinks.address, address));
  return row?.user;
}

/**
 * Signs in with a wallet. A linked wallet opens a session of its account; a wallet seen for the
 * first time creates a real account (no email, phone or known password) that it alone signs in to.
 */
export async function walletLogin(
  db: Db,
  params: {
    input: TWalletSignInRequest;
    ip: string;
    userAgent?: string;
    language: string;
    site: SiteIdentity;
    now?: Date;
  },
): Promise<{ token: string; userId: number; created: boolean }> {
  const now = params.now ?? new Date();
  const { address, chainId } = await acceptSignedMessage(db, {
    input: params.input,
    purpose: "login",
    ip: params.ip,
    site: params.site,
    now,
  });
  const meta = { ip: params.ip, userAgent: params.userAgent };
  for (let attempt = 0; attempt < 5; attempt++) {
    const owner = await ownerOf(db, address);
    if (owner) {
      if (owner.kind !== "real") {
        throw new AppError("WALLET_NOT_FOUND");
      }
      if (owner.status === "frozen") {
        throw new AppError("ACCOUNT_FROZEN");
      }
      await db.update(walletLinks).set({ lastUsedAt: now }).where(eq(walletLinks.address, address));
      const token = await createSession(db, owner.id, meta);
      return { token, userId: owner.id, created: false };
    }
    const uid = String(randomInt(10_000_000, 100_000_000));
    try {
      return await db.transaction(async (tx) => {
        const [user] = await tx
          .insert(users)
          .values({
            uid,
            passwordHash: NO_PASSWORD,
            nationality: "ZZ",
            inviteCode: newInviteCode(),
            nickname: `U${uid}`,
            language: params.language,
          })
          .returning({ id: users.id });
        if (!user) {
          throw new AppError("REQUEST_ERROR");
        }
        await tx.insert(walletLinks).values({ userId: user.id, address, chainId, lastUsedAt: now });
        const token = await createSession(tx, user.id, meta);
        return { token, userId: user.id, created: true };
      });
    } catch (error) {
      const pgError =
        (error as { cause?: { code?: string } }).cause ?? (error as { code?: string; constraint?: string });
      if (pgError.code !== UNIQUE_VIOLATION) {
        throw error;
      }
      // Another sign-in of the same wallet created its account first (or a uid collided): read again.
    }
  }
  throw new AppError("REQUEST_ERROR");
}

/**
 * Links a wallet to the signed-in account after it signed a link message issued to this user. A
 * wallet already linked to another account is refused; linking one's own wallet again is a no-op.
 * The user row is locked while counting, so parallel links never pass `identity.wallet.maxPerUser`.
 */
export async function linkWallet(
  db: Db,
  user: User,
  params: { input: TWalletSignInRequest; ip: string; site: SiteIdentity; now?: Date },
): Promise<TLinkedWallet> {
  const now = params.now ?? new Date();
  if (user.kind !== "real") {
    throw new AppError("REAL_ACCOUNT_REQUIRED");
  }
  const { address, chainId } = await acceptSignedMessage(db, {
    input: params.input,
    purpose: "link",
    userId: user.id,
    ip: params.ip,
    site: params.site,
    now,
  });
  const max = await getPolicy(db, "identity.wallet.maxPerUser");
  await db.transaction(async (tx) => {
    await tx.execute(sql`select id from users where id = ${user.id} for update`);
    const [existing] = await tx
      .select({ userId: walletLinks.userId })
      .from(walletLinks)
      .where(eq(walletLinks.address, address));
    if (existing) {
      if (existing.userId !== user.id) {
        throw new AppError("WALLET_ALREADY_LINKED");
      }
      return;
    }
    const [linked] = await tx.select({ n: count() }).from(walletLinks).where(eq(walletLinks.userId, user.id));
    if ((linked?.n ?? 0) >= max) {
      throw new AppError("WALLET_LIMIT", { max });
    }
    const inserted = await tx
      .insert(walletLinks)
      .values({ userId: user.id, address, chainId })
      .onConflictDoNothing({ target: walletLinks.address })
      .returning({ id: walletLinks.id });
    if (inserted.length === 0) {
      // Another account linked it between the read and the insert.
      throw new AppError("WALLET_ALREADY_LINKED");
    }
  });
  const wallets = await listWallets(db, user.id);
  const wallet = wallets.find((w) => w.address === address);
  if (!wallet) {
    throw new AppError("WALLET_NOT_FOUND");
  }
  return wallet;
}

/** The user's linked wallets, oldest first. */
export async function listWallets(db: Db, userId: number): Promise<TLinkedWallet[]> {
  const rows = await db
    .select()
    .from(walletLinks)
    .where(eq(walletLinks.userId, userId))
    .orderBy(asc(walletLinks.createdAt), asc(walletLinks.id));
  return rows.map((row) => ({
    id: row.id,
    address: row.address,
    chainId: row.chainId,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
  }));
}

/**
 * Removes one of the user's wallets; another user's id is not found. The last wallet of an account
 * with no email or phone is its only way in, and stays.
 */
export async function unlinkWallet(db: Db, user: User, id: number): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(sql`select id from users where id = ${user.id} for update`);
    const rows = await tx
      .select({ id: walletLinks.id })
      .from(walletLinks)
      .where(eq(walletLinks.userId, user.id))
      .orderBy(asc(walletLinks.id));
    if (!rows.some((row) => row.id === id)) {
      throw new AppError("WALLET_NOT_FOUND");
    }
    if (rows.length === 1 && !user.email && !user.phone) {
      throw new AppError("WALLET_LAST_SIGN_IN");
    }
    await tx.delete(walletLinks).where(and(eq(walletLinks.id, id), eq(walletLinks.userId, user.id)));
  });
}
