import { sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  index,
  integer,
  numeric,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";

const money = () => numeric({ precision: 38, scale: 18 });
/** A quantity of wei (or gas), an unsigned 256-bit integer. */
const wei = () => numeric({ precision: 78, scale: 0 });

/**
 * A sweep of one deposit address in one currency to the hot wallet (`sweepMachine`). The amount and
 * fee caps are fixed when it is planned; each signed transaction (the hot wallet's gas top-up, the
 * deposit address's transfer) is stored with the state change that sends it, so a rerun after a
 * crash sends the stored bytes again. One open sweep per address at a time: its transfers use the
 * address's nonces one after the other. No key is stored: the raw bytes carry signatures only.
 */
export const chainSweeps = pgTable(
  "chain_sweeps",
  {
    id: bigserial({ mode: "number" }).primaryKey(),
    network: text().notNull(),
    /** Lower-case deposit address and its derivation index under CHAIN_XPUB. */
    address: text().notNull(),
    derivationIndex: integer().notNull(),
    currency: text().notNull(),
    status: text({ enum: ["planned", "gas_sent", "sent", "confirmed", "failed"] })
      .notNull()
      .default("planned"),
    /** What the hot wallet receives, in the currency's units. */
    amount: money().notNull(),
    hotAddress: text().notNull(),
    gas: wei().notNull(),
    maxFeePerGas: wei().notNull(),
    maxPriorityFeePerGas: wei().notNull(),
    /** Native coin the hot wallet sends the address for the transfer's gas (0: it had enough). */
    gasTopUp: money().notNull().default("0"),
    topUpHash: text(),
    topUpRaw: text(),
    topUpNonce: bigint({ mode: "number" }),
    sweepHash: text(),
    sweepRaw: text(),
    sweepNonce: bigint({ mode: "number" }),
    /** Gas paid on chain (native coin), set when each transaction's receipt is booked. */
    topUpFee: money(),
    sweepFee: money(),
    confirmations: integer().notNull().default(0),
    createdAt: timestamp({ withTimezone: true }).notNull(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("chain_sweeps_open_key")
      .on(t.network, t.address)
      .where(sql`${t.status} in ('planned', 'gas_sent', 'sent')`),
    index("chain_sweeps_created_idx").on(t.network, t.createdAt),
  ],
);
