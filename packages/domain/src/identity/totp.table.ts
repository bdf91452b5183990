import { bigint, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/** Google Authenticator (TOTP) secrets; `enabledAt` is set once the user proved a first code. */
export const userTotp = pgTable("user_totp", {
  userId: bigint({ mode: "number" }).primaryKey(),
  /** Encrypted (AES-256-GCM) with the key named in its prefix; see totp-keys.ts. */
  secret: text().notNull(),
  enabledAt: timestamp({ withTimezone: true }),
  /** The last accepted 30-second step: a code is accepted only for a newer step, so once. */
  lastStep: bigint({ mode: "number" }),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});
