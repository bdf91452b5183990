import { sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  boolean,
  index,
  integer,
  numeric,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";

const money = () => numeric({ precision: 38, scale: 18 });

/** Addresses operators configure for crypto deposits, per currency and chain. */
export const depositAddresses = pgTable(
  "deposit_addresses",
  {
    id: bigserial({ mode: "number" }).primaryKey(),
    currency: text().notNull(),
    chain: text().notNull(),
    address: text().notNull(),
    memo: text(),
    enabled: boolean().notNull().default(true),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("deposit_addresses_key").on(t.currency, t.chain)],
);

export const deposits = pgTable(
  "deposits",
  {
    id: bigserial({ mode: "number" }).primaryKey(),
    userId: bigint({ mode: "number" }).notNull(),
    channel: text({ enum: ["crypto", "bank"] }).notNull(),
    currency: text().notNull(),
    chain: text().notNull(),
    amount: money().notNull(),
    txHash: text().notNull(),
    proofUploadId: uuid(),
    description: text(),
    /** USDT value at confirmation, for the withdrawal turnover requirement. */
    valueUsdt: money(),
    /**
     * On a watched chain: which transfer of the transaction (−1 the native one, else the log index),
     * the confirmations seen so far and those needed. Null on the manual path.
     */
    logIndex: integer(),
    confirmations: integer(),
    confirmationsRequired: integer(),
    status: text({ enum: ["pending", "success", "failed"] })
      .notNull()
      .default("pending"),
    rejectReason: text(),
    reviewedBy: bigint({ mode: "number" }),
    reviewedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("deposits_user_idx").on(t.userId, t.createdAt),
    index("deposits_status_idx").on(t.status, t.createdAt),
    // One on-chain transfer can be claimed once, unless an earlier claim was rejected.
    uniqueIndex("deposits_tx_hash_key")
      .on(t.chain, t.txHash, sql`coalesce(${t.logIndex}, -1)`)
      .where(sql`${t.status} <> 'failed'`),
  ],
);

export const withdrawalAddresses = pgTable(
  "withdrawal_addresses",
  {
    id: bigserial({ mode: "number" }).primaryKey(),
    userId: bigint({ mode: "number" }).notNull(),
    currency: text().notNull(),
    chain: text().notNull(),
    address: text().notNull(),
    remark: text(),
    memo: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    deletedAt: timestamp({ withTimezone: true }),
  },
  (t) => [index("withdrawal_addresses_user_idx").on(t.userId)],
);

/** Bank cards for withdrawals by wire: every field of SPEC section 3. */
export const bankCards = pgTable(
  "bank_cards",
  {
    id: bigserial({ mode: "number" }).primaryKey(),
    userId: bigint({ mode: "number" }).notNull(),
    bankName: text().notNull(),
    account: text().notNull(),
    cardId: text().notNull(),
    swiftCode: text(),
    routingNumber: text(),
    bankAddress: text(),
    phone: text(),
    payeeName: text().notNull(),
    payeeAddress: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    deletedAt: timestamp({ withTimezone: true }),
  },
  (t) => [index("bank_cards_user_idx").on(t.userId)],
);

export const withdrawals = pgTable(
  "withdrawals",
  {
    id: bigserial({ mode: "number" }).primaryKey(),
    userId: bigint({ mode: "number" }).notNull(),
    method: text({ enum: ["crypto", "bank"] }).notNull(),
    currency: text().notNull(),
    chain: text(),
    address: text(),
    memo: text(),
    bankCardId: bigint({ mode: "number" }),
    amount: money().notNull(),
    fee: money().notNull(),
    received: money().notNull(),
    status: text({
      enum: [
        "pending",
        "queued",
        "awaiting_release",
        "broadcast",
        "confirming",
        "success",
        "failed",
        "cancelled",
      ],
    })
      .notNull()
      .default("pending"),
    rejectReason: text(),
    reviewedBy: bigint({ mode: "number" }),
    reviewedAt: timestamp({ withTimezone: true }),
    /** The operator who let it pass the daily hot-wallet limit (awaiting_release → queued). */
    releasedBy: bigint({ mode: "number" }),
    /** Paid by the hot wallet: the latest transaction's hash (every attempt is kept by the chain module). */
    txHash: text(),
    /** Blocks on top of the including one, counting it, and how many the payout waits for. */
    confirmations: integer(),
    confirmationsRequired: integer(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("withdrawals_user_idx").on(t.userId, t.createdAt),
    index("withdrawals_status_idx").on(t.status, t.createdAt),
  ],
);

/** Transfers between a user's own wallets, and conversions between currencies, as records to list. */
export const walletTransfers = pgTable(
  "wallet_transfers",
  {
    id: bigserial({ mode: "number" }).primaryKey(),
    userId: bigint({ mode: "number" }).notNull(),
    book: text({ enum: ["real", "demo"] }).notNull(),
    kind: text({ enum: ["transfer", "convert"] }).notNull(),
    fromWallet: text().notNull(),
    toWallet: text().notNull(),
    fromCurrency: text().notNull(),
    toCurrency: text().notNull(),
    amount: money().notNull(),
    received: money().notNull(),
    /** For conversions: the price used, after the spread. */
    price: money(),
    /** USDT value of a conversion, counted as turnover for the withdrawal requirement. */
    turnoverUsdt: money().notNull().default("0"),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("wallet_transfers_user_idx").on(t.userId, t.createdAt)],
);

/**
 * Firm conversion quotes: what the user confirmed, executed exactly or refused. A quote is the
 * user's own (another user's id reaches nothing), lives `funding.convert.quoteSeconds`, and is used
 * once (`transferId` set in the transaction that converts).
 */
export const conversionQuotes = pgTable(
  "conversion_quotes",
  {
    id: uuid().primaryKey(),
    userId: bigint({ mode: "number" }).notNull(),
    book: text({ enum: ["real", "demo"] }).notNull(),
    fromCurrency: text().notNull(),
    toCurrency: text().notNull(),
    amount: money().notNull(),
    /** Units of `to` per unit of `from`, after the spread. */
    price: money().notNull(),
    received: money().notNull(),
    spread: money().notNull(),
    /** USDT value of the amount at the quote, counted as turnover for the withdrawal requirement. */
    turnoverUsdt: money().notNull(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    transferId: bigint({ mode: "number" }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("conversion_quotes_user_idx").on(t.userId, t.createdAt)],
);
