import {
  bigint,
  bigserial,
  date,
  index,
  integer,
  numeric,
  pgTable,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";

const money = () => numeric({ precision: 38, scale: 18 });

/**
 * One row per UTC day whose referral rewards were computed and paid. Written first in the day's
 * transaction: a second run of the same day (a redelivered job, two workers, the CLI) waits for the
 * first and then finds the row, so a day is paid once.
 */
export const referralRuns = pgTable("referral_runs", {
  day: date({ mode: "string" }).primaryKey(),
  /** Fee postings (trading fees of real accounts) the day held. */
  feePostings: integer().notNull().default(0),
  /** Reward rows written (one per invitee, inviter and currency). */
  rewards: integer().notNull().default(0),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/**
 * One inviter's reward from one invitee's trading fees of one day in one currency: `fee` is what the
 * invitee paid that day, `rate` the share of the inviter's level, `amount` = fee × rate rounded down
 * to the currency's decimals. The ledger entry pays each inviter once per day and currency.
 */
export const referralRewards = pgTable(
  "referral_rewards",
  {
    id: bigserial({ mode: "number" }).primaryKey(),
    day: date({ mode: "string" }).notNull(),
    beneficiaryId: bigint({ mode: "number" }).notNull(),
    inviteeId: bigint({ mode: "number" }).notNull(),
    /** 1 = the beneficiary invited the invitee; 2 = invited their inviter; … */
    level: smallint().notNull(),
    currency: text().notNull(),
    fee: money().notNull(),
    rate: numeric({ precision: 12, scale: 8 }).notNull(),
    amount: money().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("referral_rewards_day_pair_key").on(t.day, t.beneficiaryId, t.inviteeId, t.currency),
    index("referral_rewards_beneficiary_idx").on(t.beneficiaryId, t.day),
  ],
);
