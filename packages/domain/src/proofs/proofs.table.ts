import {
  bigint,
  bigserial,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
} from "drizzle-orm/pg-core";

/** The ledger's user claims of one currency at a proof's snapshot (see `LedgerClaims`). */
export interface StoredLedgerClaims {
  currency: string;
  userAccounts: string;
  earnCustody: string;
  c2cReserved: string;
  optionStakes: string;
  accruedYield: string;
  total: string;
}

/**
 * A published proof of liabilities: the root of the Merkle sum tree over every real user's
 * claims at `snapshotAt`, and its sums, the totals per currency (in `currencies` order). Version 2
 * leaves break each claim down by bucket (`buckets`, in order); `bucketTotals` sums them per bucket
 * and currency, and `ledgerClaims` holds the ledger's figures the totals equalled at the snapshot.
 */
export const liabilityProofs = pgTable("liability_proofs", {
  id: bigserial({ mode: "number" }).primaryKey(),
  snapshotAt: timestamp({ withTimezone: true, precision: 3 }).notNull(),
  currencies: jsonb().$type<string[]>().notNull(),
  rootHash: text().notNull(),
  rootSums: jsonb().$type<string[]>().notNull(),
  leafCount: integer().notNull(),
  version: integer().notNull().default(1),
  buckets: jsonb().$type<string[]>(),
  bucketTotals: jsonb().$type<string[][]>(),
  ledgerClaims: jsonb().$type<StoredLedgerClaims[]>(),
  publishedBy: text().notNull(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/**
 * One user's leaf: their balances per currency and the salt that hides them in the hash; version 2
 * adds the breakdown (per bucket of the proof, one amount per currency).
 */
export const liabilityProofLeaves = pgTable(
  "liability_proof_leaves",
  {
    proofId: bigint({ mode: "number" }).notNull(),
    userId: bigint({ mode: "number" }).notNull(),
    leafIndex: integer().notNull(),
    salt: text().notNull(),
    balances: jsonb().$type<string[]>().notNull(),
    breakdown: jsonb().$type<string[][]>(),
  },
  (t) => [
    primaryKey({ columns: [t.proofId, t.userId] }),
    index("liability_proof_leaves_index").on(t.proofId, t.leafIndex),
  ],
);

/** Every node of the tree by level (0: leaves) and index, so a user's path is one lookup. */
export const liabilityProofNodes = pgTable(
  "liability_proof_nodes",
  {
    proofId: bigint({ mode: "number" }).notNull(),
    level: integer().notNull(),
    idx: integer().notNull(),
    hash: text().notNull(),
    sums: jsonb().$type<string[]>().notNull(),
  },
  (t) => [primaryKey({ columns: [t.proofId, t.level, t.idx] })],
);
