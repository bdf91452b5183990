import type { Language } from "@northstar/shared/languages";
import { and, asc, count, desc, eq } from "drizzle-orm";
import sanitizeHtml from "sanitize-html";
import type { DbOrTx } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { contentTexts, type LocalizedText, siteConfig } from "./content.table.ts";

export type ContentKind = (typeof contentTexts.$inferSelect)["kind"];

/** Operator rich text keeps formatting tags and links, never scripts, styles or event handlers. */
export function sanitizeBody(html: string): string {
  return sanitizeHtml(html, {
    allowedTags: sanitizeHtml.defaults.allowedTags.concat(["img", "h1", "h2"]),
    allowedAttributes: { a: ["href", "title"], img: ["src", "alt"] },
    allowedSchemes: ["https", "http", "mailto"],
  });
}

export function pickText(texts: LocalizedText, lang: Language) {
  // Operators may publish before every translation exists; English is the fallback for content only.
  return texts[lang] ?? texts.en ?? Object.values(texts)[0] ?? { title: "", body: "" };
}

/** Creates or replaces a content text; bodies are sanitised on the way in. */
export async function saveContentText(
  db: DbOrTx,
  params: {
    id?: number;
    kind: ContentKind;
    categoryId?: number;
    slug?: string;
    texts: LocalizedText;
    sort?: number;
    publishedAt?: Date;
  },
): Promise<number> {
  const texts: LocalizedText = Object.fromEntries(
    Object.entries(params.texts).map(([lang, t]) => [
      lang,
      { title: t.title.trim(), summary: t.summary?.trim() ?? "", body: sanitizeBody(t.body) },
    ]),
  );
  const values = {
    kind: params.kind,
    categoryId: params.categoryId ?? null,
    slug: params.slug ?? null,
    texts,
    sort: params.sort ?? 0,
    publishedAt: params.publishedAt ?? new Date(),
    updatedAt: new Date(),
  };
  if (params.id !== undefined) {
    await db
      .insert(contentTexts)
      .values({ id: params.id, ...values })
      .onConflictDoUpdate({ target: contentTexts.id, set: values });
    return params.id;
  }
  const [row] = await db.insert(contentTexts).values(values).returning({ id: contentTexts.id });
  if (!row) {
    throw new AppError("REQUEST_ERROR");
  }
  return row.id;
}

/**
 * web/getTextsList: one page by id (company profile 1, user agreement 3, privacy terms 5), or a
 * paged list of news, announcements or help articles, newest first, in the request's language.
 */
export async function getTextsList(
  db: DbOrTx,
  params: { lang: Language; id?: number; kind?: ContentKind; page: number; pageSize: number },
) {
  if (params.id !== undefined) {
    const [row] = await db
      .select()
      .from(contentTexts)
      .where(and(eq(contentTexts.id, params.id), eq(contentTexts.published, true)));
    if (!row) {
      throw new AppError("NOT_FOUND");
    }
    const t = pickText(row.texts, params.lang);
    return {
      total: 1,
      list: [
        {
          id: row.id,
          kind: row.kind,
          title: t.title,
          summary: t.summary ?? "",
          content: t.body,
          time: unix(row.publishedAt),
        },
      ],
    };
  }
  const where = and(eq(contentTexts.kind, params.kind ?? "news"), eq(contentTexts.published, true));
  const [rows, totals] = await Promise.all([
    db
      .select()
      .from(contentTexts)
      .where(where)
      .orderBy(asc(contentTexts.sort), desc(contentTexts.publishedAt), desc(contentTexts.id))
      .limit(params.pageSize)
      .offset((params.page - 1) * params.pageSize),
    db.select({ n: count() }).from(contentTexts).where(where),
  ]);
  return {
    total: totals[0]?.n ?? 0,
    list: rows.map((row) => {
      const t = pickText(row.texts, params.lang);
      return {
        id: row.id,
        kind: row.kind,
        title: t.title,
        summary: t.summary ?? "",
        content: t.body,
        time: unix(row.publishedAt),
      };
    }),
  };
}

export const unix = (d: Date) => Math.floor(d.getTime() / 1000);

export interface SiteSettings {
  name: string;
  logo: string;
  supportEmail: string;
}

/** web/getLogo: the site's name and logo, as operators configured them. */
export async function getSiteSettings(db: DbOrTx): Promise<SiteSettings> {
  const [row] = await db.select().from(siteConfig).where(eq(siteConfig.key, "site"));
  const value = (row?.value ?? {}) as Partial<SiteSettings>;
  return {
    name: value.name ?? "Northstar",
    logo: value.logo ?? "/logo.svg",
    supportEmail: value.supportEmail ?? "",
  };
}

export async function saveSiteSettings(db: DbOrTx, settings: SiteSettings): Promise<void> {
  await db
    .insert(siteConfig)
    .values({ key: "site", value: settings })
    .onConflictDoUpdate({ target: siteConfig.key, set: { value: settings, updatedAt: new Date() } });
}
