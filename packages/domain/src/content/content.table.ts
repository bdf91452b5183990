import {
  bigint,
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
} from "drizzle-orm/pg-core";

/** Text per language: `{ en: { title, body }, zh: {...}, ... }`. Bodies are sanitised HTML. */
export type LocalizedText = Record<string, { title: string; summary?: string; body: string }>;

/** Help-centre categories: a name per language, shown in `sort` order. */
export const helpCategories = pgTable("help_categories", {
  id: bigserial({ mode: "number" }).primaryKey(),
  names: jsonb().$type<Record<string, string>>().notNull(),
  sort: integer().notNull().default(0),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

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
    /** Help articles only: the help-centre category they are listed under. */
    categoryId: bigint({ mode: "number" }).references(() => helpCategories.id),
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

/**
 * Home-page banners: an image and a title per language, opening the banner's own article at
 * /bannerDetail. Shown while published and inside the optional window [startsAt, endsAt).
 */
export const banners = pgTable(
  "banners",
  {
    id: bigserial({ mode: "number" }).primaryKey(),
    texts: jsonb().$type<LocalizedText>().notNull(),
    /** A site path (`/banners/x.png`) or https URL; the page's image policy decides what loads. */
    image: text().notNull(),
    sort: integer().notNull().default(0),
    published: boolean().notNull().default(false),
    startsAt: timestamp({ withTimezone: true }),
    endsAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("banners_published_idx").on(t.published, t.sort)],
);
