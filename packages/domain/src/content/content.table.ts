import { bigserial, boolean, index, integer, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/** Text per language: `{ en: { title, body }, zh: {...}, ... }`. Bodies are sanitised HTML. */
export type LocalizedText = Record<string, { title: string; summary?: string; body: string }>;

/**
 * Content pages and articles. Fixed pages keep fixed ids that footer links use:
 * 1 company profile, 3 user agreement, 5 privacy terms.
 */
export const contentTexts = pgTable(
  "content_texts",
  {
    id: bigserial({ mode: "number" }).primaryKey(),
    kind: text({ enum: ["page", "news", "announcement", "help"] }).notNull(),
    slug: text(),
    texts: jsonb().$type<LocalizedText>().notNull(),
    published: boolean().notNull().default(true),
    sort: integer().notNull().default(0),
    publishedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("content_texts_kind_idx").on(t.kind, t.published, t.publishedAt)],
);

/** Site-wide settings operators edit: name, logo, support contacts. One row per key. */
export const siteConfig = pgTable("site_config", {
  key: text().primaryKey(),
  value: jsonb().notNull(),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});
