import { randomBytes } from "node:crypto";
import type {
  TApiKeyPermission,
  TApiKeyView,
  TCreateApiKeyRequest,
  TCreatedApiKey,
  TUpdateApiKeyRequest,
} from "@northstar/shared/contracts/apikeys";
import { type ApiKeyStatus, apiKeyMachine } from "@northstar/shared/state-machines";
import { and, asc, count, eq, ne, sql } from "drizzle-orm";
import type { Redis } from "ioredis";
import { recordAudit } from "../audit/index.ts";
import type { Db, DbOrTx } from "../db/client.ts";
import { AppError } from "../errors.ts";
import {
  isGoogleBound,
  sha256,
  type TotpKeyring,
  type User,
  verifyGoogleCode,
  verifyTradePassword,
} from "../identity/index.ts";
import { bookOf } from "../ledger/index.ts";
import { getPolicy } from "../policy/index.ts";
import { transition } from "../state/index.ts";
import { apiKeys } from "./apikeys.table.ts";

export type ApiKeyRow = typeof apiKeys.$inferSelect;

/** The Redis counter that any change of a key bumps (by the key's hash, known before its row is read). */
export const revisionKey = (prefix: string, keyHash: string) => `${prefix}:apikey:rev:${keyHash}`;

/** Where key changes are announced: the Redis every API process reads its revisions from. */
export interface KeyRevisions {
  redis: Redis;
  prefix: string;
}

/** Announces that a key changed (status, permissions, address list): every process drops its copy. */
export async function bumpKeyRevision(revisions: KeyRevisions, keyHash: string): Promise<void> {
  const key = revisionKey(revisions.prefix, keyHash);
  // Kept a day after the last change: longer than any cached copy lives.
  await revisions.redis.multi().incr(key).expire(key, 86_400).exec();
}

// One keyring per process, set at boot (as identity's TOTP keyring): it opens the stored secrets.
let active: TotpKeyring | undefined;

/** Sets the keyring that encrypts API key secrets (`API_KEY_ENCRYPTION_KEY`, see the README). */
export function useApiKeyKeyring(keyring: TotpKeyring): void {
  active = keyring;
}

function keyring(): TotpKeyring {
  if (!active) {
    throw new Error("the API key keyring is not configured");
  }
  return active;
}

export const encryptApiSecret = (secret: string, userId: number) =>
  keyring().encrypt(secret, userId, "api_key");
export const decryptApiSecret = (row: Pick<ApiKeyRow, "secretEncrypted" | "userId">) =>
  keyring().decrypt(row.secretEncrypted, row.userId, "api_key");

/** What the security centre shows of a key. */
export function toApiKeyView(row: ApiKeyRow, user: Pick<User, "kind">): TApiKeyView {
  return {
    id: row.id,
    label: row.label,
    key_prefix: row.keyPrefix,
    permissions: [...row.permissions],
    ip_allow_list: [...row.ipAllowList],
    status: row.status,
    book: bookOf(user),
    created_at: row.createdAt.toISOString(),
    last_used_at: row.lastUsedAt ? row.lastUsedAt.toISOString() : null,
  };
}

const permissionsOf = (spotTrade: boolean): TApiKeyPermission[] =>
  spotTrade ? ["read", "spot_trade"] : ["read"];

/**
 * Creates a key after the trade password and, when Google Authenticator is bound, its code. The
 * answer is the only time the secret leaves the server. A demo account's key trades its demo book.
 */
export async function createApiKey(db: Db, user: User, input: TCreateApiKeyRequest): Promise<TCreatedApiKey> {
  await verifyTradePassword(db, user.id, input.trade_password);
  if (await isGoogleBound(db, user.id)) {
    if (!input.google_code) {
      throw new AppError("GOOGLE_CODE_REQUIRED", {}, "google_code");
    }
    await verifyGoogleCode(db, user.id, input.google_code);
  }
  // 64 letters and digits each, as Binance's keys look: tools that check their format accept them.
  const apiKey = randomBytes(48).toString("base64url").replace(/[-_]/g, "A").slice(0, 64);
  const secret = randomBytes(48).toString("base64url").replace(/[-_]/g, "B").slice(0, 64);
  const max = await getPolicy(db, "apikeys.maxPerUser");
  const row = await db.transaction(async (tx) => {
    // A lock per user orders two creations at once, so the count below holds.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`api_keys:${user.id}`}, 0))`);
    const [have] = await tx
      .select({ n: count() })
      .from(apiKeys)
      .where(and(eq(apiKeys.userId, user.id), ne(apiKeys.status, "deleted")));
    if ((have?.n ?? 0) >= max) {
      throw new AppError("API_KEY_LIMIT", { max });
    }
    const [inserted] = await tx
      .insert(apiKeys)
      .values({
        userId: user.id,
        label: input.label,
        keyHash: sha256(apiKey),
        keyPrefix: apiKey.slice(0, 8),
        secretEncrypted: encryptApiSecret(secret, user.id),
        permissions: permissionsOf(input.spot_trade),
        ipAllowList: input.ip_allow_list,
      })
      .returning();
    return inserted as ApiKeyRow;
  });
  return { key: toApiKeyView(row, user), api_key: apiKey, secret };
}

/** The user's keys (deleted ones are gone from the list), oldest first. */
export async function listApiKeys(db: DbOrTx, user: User): Promise<TApiKeyView[]> {
  const rows = await db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.userId, user.id), ne(apiKeys.status, "deleted")))
    .orderBy(asc(apiKeys.id));
  return rows.map((row) => toApiKeyView(row, user));
}

async function ownKey(db: DbOrTx, user: User, id: number): Promise<ApiKeyRow> {
  const [row] = await db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.id, id), eq(apiKeys.userId, user.id), ne(apiKeys.status, "deleted")));
  if (!row) {
    throw new AppError("API_KEY_NOT_FOUND");
  }
  return row;
}

/** Changes a key's label, trade permission or address list. */
export async function updateApiKey(
  db: DbOrTx,
  revisions: KeyRevisions,
  user: User,
  input: TUpdateApiKeyRequest,
): Promise<TApiKeyView> {
  const row = await ownKey(db, user, input.id);
  const [updated] = await db
    .update(apiKeys)
    .set({
      ...(input.label === undefined ? {} : { label: input.label }),
      ...(input.spot_trade === undefined ? {} : { permissions: permissionsOf(input.spot_trade) }),
      ...(input.ip_allow_list === undefined ? {} : { ipAllowList: input.ip_allow_list }),
    })
    .where(and(eq(apiKeys.id, row.id), ne(apiKeys.status, "deleted")))
    .returning();
  if (!updated) {
    throw new AppError("API_KEY_NOT_FOUND");
  }
  await bumpKeyRevision(revisions, row.keyHash);
  return toApiKeyView(updated, user);
}

async function move(db: DbOrTx, row: ApiKeyRow, to: ApiKeyStatus, by: "user" | "operator"): Promise<void> {
  if (row.status === to) {
    return;
  }
  const moved = await transition(db, {
    machine: apiKeyMachine,
    table: apiKeys,
    id: row.id,
    from: row.status,
    to,
    by,
  });
  if (!moved) {
    // Another request changed the key meanwhile; the caller sees the state it left.
    throw new AppError("STATUS_UNCHANGED");
  }
}

/** The owner disables or enables a key; a key an operator blocked stays blocked (FORBIDDEN). */
export async function setApiKeyEnabled(
  db: DbOrTx,
  revisions: KeyRevisions,
  user: User,
  id: number,
  enabled: boolean,
): Promise<TApiKeyView> {
  const row = await ownKey(db, user, id);
  await move(db, row, enabled ? "active" : "disabled", "user");
  await bumpKeyRevision(revisions, row.keyHash);
  return toApiKeyView({ ...row, status: enabled ? "active" : "disabled" }, user);
}

/** The owner deletes a key: it never signs again; the row stays for the audit trail. */
export async function deleteApiKey(
  db: DbOrTx,
  revisions: KeyRevisions,
  user: User,
  id: number,
): Promise<void> {
  const row = await ownKey(db, user, id);
  await move(db, row, "deleted", "user");
  await bumpKeyRevision(revisions, row.keyHash);
}

/** An operator blocks a key (or lifts the block), audited. */
export async function setApiKeyBlocked(
  db: Db,
  revisions: KeyRevisions,
  params: { id: number; blocked: boolean; actor: string; reason?: string },
): Promise<ApiKeyRow> {
  const row = await db.transaction(async (tx) => {
    const [row] = await tx.select().from(apiKeys).where(eq(apiKeys.id, params.id)).for("update");
    if (!row || row.status === "deleted") {
      throw new AppError("API_KEY_NOT_FOUND");
    }
    const to: ApiKeyStatus = params.blocked ? "blocked" : "active";
    if (!params.blocked && row.status !== "blocked") {
      return row;
    }
    await move(tx, row, to, "operator");
    await recordAudit(tx, {
      actor: params.actor,
      action: params.blocked ? "apikey.block" : "apikey.unblock",
      subject: `user:${row.userId}`,
      details: { key: row.id, prefix: row.keyPrefix, reason: params.reason ?? null },
    });
    return { ...row, status: to };
  });
  // After the commit: every process reads the key again on its next request.
  await bumpKeyRevision(revisions, row.keyHash);
  return row;
}

/** Announces a change of the owner (frozen, unfrozen) to every process's copy of each of their keys. */
export async function bumpUserKeyRevisions(
  db: DbOrTx,
  revisions: KeyRevisions,
  userId: number,
): Promise<void> {
  const rows = await db
    .select({ keyHash: apiKeys.keyHash })
    .from(apiKeys)
    .where(and(eq(apiKeys.userId, userId), ne(apiKeys.status, "deleted")))
    .orderBy(asc(apiKeys.id));
  for (const row of rows) {
    await bumpKeyRevision(revisions, row.keyHash);
  }
}

/** Every key of a user, for the back office (never the secret). */
export async function listUserApiKeysForOperator(db: DbOrTx, userId: number) {
  return db
    .select({
      id: apiKeys.id,
      label: apiKeys.label,
      keyPrefix: apiKeys.keyPrefix,
      permissions: apiKeys.permissions,
      status: apiKeys.status,
      createdAt: apiKeys.createdAt,
      lastUsedAt: apiKeys.lastUsedAt,
    })
    .from(apiKeys)
    .where(eq(apiKeys.userId, userId))
    .orderBy(asc(apiKeys.id));
}
