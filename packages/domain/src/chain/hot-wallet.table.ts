import {
  bigint,
  bigserial,
  index,
  integer,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";

const money = () => numeric({ precision: 38, scale: 18 });
/** A quantity of wei (or gas), an unsigned 256-bit integer. */
const wei = () => numeric({ precision: 78, scale: 0 });

/**
 * The next nonce of each hot wallet on each chain. The signer takes it under a row lock
 * (`FOR UPDATE`) in the transaction that stores the signed payout, so parallel payouts get
 * consecutive nonces and none is skipped; the first use reads the chain's pending count.
 */
export const hotWalletNonces = pgTable(
  "hot_wallet_nonces",
  {
    chain: text().notNull(),
    address: text().notNull(),
    nextNonce: bigint({ mode: "number" }).notNull(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.chain, t.address] })],
);

/**
 * A withdrawal the hot wallet pays: written once, when it is first signed, with the nonce it holds
 * for good (every replacement reuses it). The sum of a day's rows per currency is what the daily
 * hot-wallet limit compares against.
 */
export const hotWalletPayouts = pgTable(
  "hot_wallet_payouts",
  {
    withdrawalId: bigint({ mode: "number" }).primaryKey(),
    chain: text().notNull(),
    fromAddress: text().notNull(),
    toAddress: text().notNull(),
    currency: text().notNull(),
    /** What the recipient receives, in the currency's units. */
    amount: money().notNull(),
    nonce: bigint({ mode: "number" }).notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex("hot_wallet_payouts_nonce_uq").on(t.chain, t.fromAddress, t.nonce),
    index("hot_wallet_payouts_day_idx").on(t.chain, t.currency, t.createdAt),
  ],
);

/**
 * Every signed transaction of a payout, stored before it is sent, so a restart sends the same bytes
 * again rather than signing a new one. A stuck one is replaced by the next attempt: the same nonce
 * at higher fee caps. The raw bytes carry a signature, never the key.
 */
export const hotWalletTransactions = pgTable(
  "hot_wallet_transactions",
  {
    id: bigserial({ mode: "number" }).primaryKey(),
    withdrawalId: bigint({ mode: "number" }).notNull(),
    attempt: integer().notNull(),
    hash: text().notNull(),
    raw: text().notNull(),
    gas: wei().notNull(),
    maxFeePerGas: wei().notNull(),
    maxPriorityFeePerGas: wei().notNull(),
    /** The chain's head when it was signed: a payout not included `chain.withdraw.stuckAfterBlocks` later is stuck. */
    signedAtBlock: bigint({ mode: "number" }),
    createdAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex("hot_wallet_transactions_attempt_uq").on(t.withdrawalId, t.attempt),
    uniqueIndex("hot_wallet_transactions_hash_uq").on(t.hash),
  ],
);
