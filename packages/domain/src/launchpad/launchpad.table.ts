import {
  bigint,
  bigserial,
  date,
  index,
  integer,
  numeric,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";

const money = () => numeric({ precision: 38, scale: 18 });

/** A new-coin offering (SPEC section 3): prices in `payCurrency`, quantities in the new coin. */
export const launchpadOfferings = pgTable("launchpad_offerings", {
  id: bigserial({ mode: "number" }).primaryKey(),
  coin: text().notNull(),
  name: text().notNull(),
  payCurrency: text().notNull(),
  issuePrice: money().notNull(),
  subscribePrice: money().notNull(),
  totalQuantity: money().notNull(),
  minQuantity: money().notNull(),
  maxQuantity: money().notNull(),
  startsAt: timestamp({ withTimezone: true }).notNull(),
  endsAt: timestamp({ withTimezone: true }).notNull(),
  lockDays: integer().notNull(),
  listingDay: date({ mode: "string" }).notNull(),
  circulation: money().notNull(),
  status: text({ enum: ["open", "allocated", "issuance_failed"] })
    .notNull()
    .default("open"),
  failReason: text(),
  /** When the coin got its spot market (on the listing day, by the launchpad-unlock job). */
  listedAt: timestamp({ withTimezone: true }),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/**
 * One user's subscription to an offering: `frozen` (quantity × subscribe price) is held in the
 * exchange wallet until the allocation; then `passedQuantity` is credited (locked until
 * `unlockAt`), `fee` charged on what passed, the rest (`refunded`) released.
 */
export const launchpadSubscriptions = pgTable(
  "launchpad_subscriptions",
  {
    id: bigserial({ mode: "number" }).primaryKey(),
    offeringId: bigint({ mode: "number" }).notNull(),
    userId: bigint({ mode: "number" }).notNull(),
    quantity: money().notNull(),
    frozen: money().notNull(),
    passedQuantity: money().notNull().default("0"),
    fee: money().notNull().default("0"),
    refunded: money().notNull().default("0"),
    status: text({ enum: ["reviewing", "passed", "failed", "sold_out", "issuance_failed", "refunded"] })
      .notNull()
      .default("reviewing"),
    failReason: text(),
    rejectReason: text(),
    unlockAt: timestamp({ withTimezone: true }),
    unlockedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("launchpad_subscriptions_user_offering").on(t.offeringId, t.userId),
    index("launchpad_subscriptions_user_idx").on(t.userId, t.createdAt),
    index("launchpad_subscriptions_unlock_idx").on(t.status, t.unlockAt),
  ],
);
