import { boolean, integer, pgTable, text } from "drizzle-orm/pg-core";

/** Currencies the platform holds. `decimals` is the precision amounts are stored and shown with. */
export const currencies = pgTable("currencies", {
  code: text().primaryKey(),
  name: text().notNull(),
  decimals: integer().notNull(),
  displayDecimals: integer().notNull(),
  enabled: boolean().notNull().default(true),
  sort: integer().notNull().default(0),
});
