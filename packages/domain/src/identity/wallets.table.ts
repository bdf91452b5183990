import {
  bigint,
  bigserial,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";

/**
 * Ethereum wallets that sign their owner in (EIP-4361). A wallet belongs to at most one account:
 * the unique index on the address, stored in its checksummed form, settles concurrent links.
 */
export const walletLinks = pgTable(
  "wallet_links",
  {
    id: bigserial({ mode: "number" }).primaryKey(),
    userId: bigint({ mode: "number" }).notNull(),
    /** EIP-55 checksummed address. */
    address: text().notNull(),
    /** The chain the ownership was proved on. */
    chainId: integer().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp({ withTimezone: true }),
  },
  (t) => [uniqueIndex("wallet_links_address_key").on(t.address), index("wallet_links_user_idx").on(t.userId)],
);

/**
 * Sign-in nonces: issued for one address, one chain and one purpose, single-use (`usedAt`) and
 * short-lived (`expiresAt`, policy `identity.wallet.nonceTtlMinutes`). A link nonce names its user.
 */
export const walletNonces = pgTable(
  "wallet_nonces",
  {
    nonce: text().primaryKey(),
    purpose: text({ enum: ["login", "link"] }).notNull(),
    userId: bigint({ mode: "number" }),
    address: text().notNull(),
    chainId: integer().notNull(),
    ip: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    usedAt: timestamp({ withTimezone: true }),
  },
  (t) => [index("wallet_nonces_ip_idx").on(t.ip, t.createdAt)],
);
