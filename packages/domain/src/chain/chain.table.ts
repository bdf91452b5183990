import { sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";

const money = () => numeric({ precision: 38, scale: 18 });

/**
 * Each user's deposit address on a chain: child `derivation_index` of CHAIN_XPUB, allocated once and
 * kept (an address, once shown, stays the user's).
 */
export const chainAddresses = pgTable(
  "chain_addresses",
  {
    id: bigserial({ mode: "number" }).primaryKey(),
    network: text().notNull(),
    userId: bigint({ mode: "number" }).notNull(),
    derivationIndex: integer().notNull(),
    /** Lower-case 0x address, as the watcher compares it. */
    address: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("chain_addresses_user_key").on(t.network, t.userId),
    uniqueIndex("chain_addresses_index_key").on(t.network, t.derivationIndex),
    uniqueIndex("chain_addresses_address_key").on(t.network, t.address),
  ],
);

/**
 * The blocks the watcher has processed, by number, with their hashes: a block whose hash or parent
 * no longer matches the node's was replaced (a reorganisation), and what it held is undone.
 */
export const chainBlocks = pgTable(
  "chain_blocks",
  {
    network: text().notNull(),
    number: bigint({ mode: "bigint" }).notNull(),
    hash: text().notNull(),
    parentHash: text().notNull(),
    processedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.network, t.number] })],
);

/**
 * A transfer to a user's deposit address seen on chain: a native transfer (log_index −1) or an ERC20
 * `Transfer` log. One row per (network, tx, log) whichever block it lands in; the funding deposit it
 * belongs to is `deposit_id`.
 */
export const chainTransfers = pgTable(
  "chain_transfers",
  {
    id: bigserial({ mode: "number" }).primaryKey(),
    network: text().notNull(),
    txHash: text().notNull(),
    logIndex: integer().notNull(),
    /** The block that holds it now; null while its block was replaced and it is not seen again. */
    blockNumber: bigint({ mode: "bigint" }),
    blockHash: text(),
    userId: bigint({ mode: "number" }).notNull(),
    address: text().notNull(),
    currency: text().notNull(),
    /** The amount on chain, in the token's units, exactly. */
    amount: money().notNull(),
    status: text({ enum: ["confirming", "credited", "below_minimum", "orphaned"] })
      .notNull()
      .default("confirming"),
    depositId: bigint({ mode: "number" }),
    creditedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("chain_transfers_tx_key").on(t.network, t.txHash, t.logIndex),
    index("chain_transfers_status_idx").on(t.network, t.status, t.blockNumber),
  ],
);

/**
 * What operators must look at: a credited deposit whose block was replaced (never credited twice,
 * and the coins may not be there). Open until an operator resolves it.
 */
export const chainAlerts = pgTable(
  "chain_alerts",
  {
    id: bigserial({ mode: "number" }).primaryKey(),
    network: text().notNull(),
    kind: text({ enum: ["reorg_after_credit"] }).notNull(),
    transferId: bigint({ mode: "number" }).notNull(),
    details: jsonb().notNull().default(sql`'{}'::jsonb`),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    resolvedAt: timestamp({ withTimezone: true }),
    resolvedBy: text(),
  },
  (t) => [
    // One open alert per transfer and kind: a second reorg of the same block adds nothing.
    uniqueIndex("chain_alerts_open_key").on(t.transferId, t.kind).where(sql`${t.resolvedAt} is null`),
    index("chain_alerts_created_idx").on(t.createdAt),
  ],
);
