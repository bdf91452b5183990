import { API_KEY_PERMISSIONS } from "@northstar/shared/contracts/apikeys";
import type { ApiKeyStatus } from "@northstar/shared/state-machines";
import { sql } from "drizzle-orm";
import { bigint, bigserial, index, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";

/**
 * A trading bot's API key. The key itself is looked up by its SHA-256 (`key_hash`): the database
 * never holds a usable key. The secret cannot be hashed, since the server needs it to check each
 * request's HMAC; it is stored encrypted (AES-256-GCM under a key from the environment, with the
 * owner's id as associated data), so a dump of the database alone signs nothing.
 */
export const apiKeys = pgTable(
  "api_keys",
  {
    id: bigserial({ mode: "number" }).primaryKey(),
    userId: bigint({ mode: "number" }).notNull(),
    label: text().notNull(),
    keyHash: text().notNull(),
    /** The key's first characters, shown in the list to tell keys apart. */
    keyPrefix: text().notNull(),
    secretEncrypted: text().notNull(),
    permissions: text({ enum: API_KEY_PERMISSIONS }).array().notNull(),
    /** Addresses the key may be used from; empty: any. */
    ipAllowList: text().array().notNull().default(sql`'{}'::text[]`),
    status: text().$type<ApiKeyStatus>().notNull().default("active"),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp({ withTimezone: true }),
  },
  (t) => [uniqueIndex("api_keys_key_hash_idx").on(t.keyHash), index("api_keys_user_idx").on(t.userId, t.id)],
);
