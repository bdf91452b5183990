import {
  bigint,
  bigserial,
  date,
  numeric,
  pgTable,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";

/**
 * A user's place in the 7-day sign-in cycle: the day of the cycle last claimed and the calendar day
 * (in the user's time zone) it was claimed on. The time zone is fixed at the first claim, so moving
 * the clock of one's browser cannot give a second claim on the same day. Claims lock this row.
 */
export const signInProfiles = pgTable("sign_in_profiles", {
  userId: bigint({ mode: "number" }).primaryKey(),
  timeZone: text().notNull(),
  /** 0 before the first claim, else 1–7. */
  cycleDay: smallint().notNull().default(0),
  lastClaimDate: date({ mode: "string" }),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/** One claim: a calendar day of the user's, its day in the cycle and the reward paid. */
export const signInClaims = pgTable(
  "sign_in_claims",
  {
    id: bigserial({ mode: "number" }).primaryKey(),
    userId: bigint({ mode: "number" }).notNull(),
    localDate: date({ mode: "string" }).notNull(),
    cycleDay: smallint().notNull(),
    currency: text().notNull(),
    amount: numeric({ precision: 38, scale: 18 }).notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("sign_in_claims_user_day_key").on(t.userId, t.localDate)],
);
